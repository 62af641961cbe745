#include "sim/frames/frames_witness.hpp"

#include "sim/simulate.hpp"

namespace gpuwcrt {

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
    out.scenario = fixed_scenario(out, x);
    return out;
}

}  // namespace gpuwcrt
