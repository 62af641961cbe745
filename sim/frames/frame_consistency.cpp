#include "sim/frames/frame_consistency.hpp"

#include <map>
#include <utility>

namespace gpuwcrt {

bool frames_consistent(const Workload& file, const Unrolled& u, const WitnessScenario& x) {
    std::map<std::pair<int, std::int64_t>, TimeRange> release;  // (stream, frame) -> instants left
    for (std::size_t i = 0; i < u.origin.size(); ++i) {
        const FrameOrigin& f = u.origin[i];
        const Operation& op = file.ops[f.op];
        if (!file.streams[op.stream].arrival.repeats() || f.release.is_point()) continue;
        TimeRange r = f.release;
        switch (op.issue.kind) {
            case IssueSpec::Kind::at: {
                const TimeRange& window = u.workload.ops[i].issue.at;
                const Time chosen = i < x.issue.size() && x.issue[i] ? *x.issue[i] : window.lo;
                const Time from = chosen - op.issue.at.hi, to = chosen - op.issue.at.lo;
                r = {std::max(r.lo, from), std::min(r.hi, to)};
                break;
            }
            case IssueSpec::Kind::after_stream_idle:
                r = {r.lo, r.lo};
                break;
            case IssueSpec::Kind::with_previous:
                continue;
        }
        auto [it, fresh] = release.try_emplace({op.stream, f.frame}, r);
        if (!fresh) it->second = {std::max(it->second.lo, r.lo), std::min(it->second.hi, r.hi)};
        if (it->second.hi < it->second.lo) return false;
    }
    return true;
}

}  // namespace gpuwcrt
