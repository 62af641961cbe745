#include "sim/frames/frame_consistency.hpp"

#include <map>
#include <optional>
#include <utility>

namespace gpuwcrt {
namespace {

using Releases = std::map<std::pair<int, std::int64_t>, TimeRange>;  // (stream, frame) -> instants left

// A sporadic stream's frames, in order, released within the instants left to each, at least
// its min_interarrival T apart in nominal instants, each up to J late (docs/theory/semantics.md §9).
// Greedily: each frame as early as it may be, its nominal instant as early as the release
// allows; a later choice only pushes the next frames later.
bool sporadic_gaps_kept(const Workload& file, const Unrolled& u, const Releases& chosen) {
    for (std::size_t s = 0; s < file.streams.size(); ++s) {
        const Arrival& a = file.streams[s].arrival;
        if (a.kind != Arrival::Kind::sporadic) continue;
        std::map<std::int64_t, TimeRange> frames;
        for (std::size_t i = 0; i < u.origin.size(); ++i)
            if (file.ops[u.origin[i].op].stream == static_cast<int>(s)) {
                const auto it = chosen.find({static_cast<int>(s), u.origin[i].frame});
                frames.try_emplace(u.origin[i].frame, it != chosen.end() ? it->second : u.origin[i].release);
            }
        std::optional<Time> nominal;  // of the previous frame
        for (const auto& [k, left] : frames) {
            Time release = left.lo;
            if (nominal && release < *nominal + a.period) release = *nominal + a.period;
            if (left.hi < release) return false;
            Time earliest = release - a.jitter;
            if (earliest < a.offset) earliest = a.offset;
            nominal = nominal && earliest < *nominal + a.period ? *nominal + a.period : earliest;
        }
    }
    return true;
}

}  // namespace

bool frames_consistent(const Workload& file, const Unrolled& u, const WitnessScenario& x) {
    Releases release;
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
    return sporadic_gaps_kept(file, u, release);
}

}  // namespace gpuwcrt
