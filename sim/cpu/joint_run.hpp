#pragma once
// A run of the whole system (docs/theory/semantics.md §11): the CPU tasks on their cores, each
// offloading job releasing its stream's frame when its first part ends and suspending until the
// frame's last operation completes, the GPU frames simulated under the block rules and time
// slices with those releases. The two simulators run in turn — the CPU with the suspensions of
// the last GPU run, the GPU with the releases of that CPU run — until the releases and the
// suspensions agree: then the pair is one run of the model. Short of that, the pair is the
// model's run up to the first instant at which a job's wait in the CPU run and its frame in the
// GPU run part (both simulators are causal: nothing before an instant depends on what comes
// after it), and each round moves that instant on; the rounds keep the longest such prefix.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/workload.hpp"
#include "sim/scenario.hpp"

namespace gpuwcrt {

// The choices of one run: every execution and block time at the upper or at the lower end of its
// interval, the order among equal priorities (the tasks' file order, `last` after the others of
// its priority), the GPU's placement policy. Every stream without a driving task is released at
// the start of each window (a sporadic one at its densest).
struct JointScenario {
    bool longest = true;
    std::optional<int> last;  // a task of w.cpu.tasks
    Policy policy = Policy::most_room;
    std::string describe(const Workload& w) const;
};

// A job of a CPU task in the run: its release, its frame's release (the end of its first part)
// and completion when it offloads, its end. Unset: not reached before 4·horizon.
struct JointJob {
    Time release;
    std::optional<Time> gpu_release, gpu_end, end;
};

// A frame of a stream: released, and its last operation completed (unset past the GPU run).
struct JointFrame {
    Time release;
    std::optional<Time> end;
};

struct JointRun {
    bool consistent = false;  // the last CPU run's releases gave the GPU run whose suspensions it used
    int rounds = 0;
    Time horizon;      // releases before it
    Time valid_until;  // what ends before it is the model's: the horizon, or where the two runs part
    std::vector<std::vector<JointJob>> jobs;      // per task of w.cpu.tasks
    std::vector<std::vector<JointFrame>> frames;  // per stream of w (a stream that runs once: one frame)
};

// Every task and stream released before `horizon`, in at most `max_rounds` rounds: the first
// round whose runs agree up to the horizon, or else the first of those that agree the longest.
JointRun joint_run(const Workload& w, const JointScenario& scenario, const Time& horizon, int max_rounds = 24);

}  // namespace gpuwcrt
