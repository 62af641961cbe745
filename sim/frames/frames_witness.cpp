#include "sim/frames/frames_witness.hpp"

#include "sim/simulate.hpp"

namespace gpuwcrt {
namespace {

// Each wait across rates of `w` as the plain wait on the frame the replay `s` made it wait on:
// the last of its frames launched before the waiting operation (none: no wait). A file that
// runs once waits on a named operation whenever it was issued, so the replay is the same.
void fix_waits_across_rates(Workload& w, const Schedule& s) {
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        for (const std::vector<int>& frames : w.ops[i].wait_latest) {
            int last = -1;
            for (const int f : frames)
                if (s.ops[f].launch_seq < s.ops[i].launch_seq) last = f;
            if (last >= 0) w.ops[i].wait.push_back(last);
        }
        w.ops[i].wait_latest.clear();
    }
}

}  // namespace

Workload frames_witness_workload(const Unrolled& u, const WitnessScenario& x) {
    Workload out = u.workload;
    out.expectations.clear();
    const Schedule replayed = simulate(u.workload, witness_scenario(u.workload, x));
    std::vector<int> previous(out.streams.size(), -1);  // the stream's last operation so far
    for (std::size_t i = 0; i < out.ops.size(); ++i) {
        IssueSpec& is = out.ops[i].issue;
        const int before = previous[out.ops[i].stream];
        previous[out.ops[i].stream] = static_cast<int>(i);
        if (is.kind != IssueSpec::Kind::after_stream_idle || !is.release) continue;
        // Issued at max(release, idle) + delay, idle being the predecessor's completion: the
        // same instant is idle + (issue - idle), as a stream's first operation is 0 + issue.
        const Time idle = before < 0 ? Time(0) : replayed.ops[before].finish;
        is.delay = replayed.ops[i].issue - idle;
        is.release.reset();
    }
    fix_waits_across_rates(out, replayed);
    out.scenario = fixed_scenario(out, x);
    return out;
}

}  // namespace gpuwcrt
