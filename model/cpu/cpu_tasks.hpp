#pragma once
// The CPU side of a workload (docs/theory/semantics.md §11): cores scheduled by fixed priorities,
// periodic or sporadic tasks on them, each of which may release a GPU stream's frame and wait for
// it (a self-suspension), and the response-time requirements the model states.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/frames/arrival.hpp"
#include "model/interval.hpp"
#include "model/source_location.hpp"
#include "model/time.hpp"

namespace gpuwcrt {

// One core; `fixed_priority_preemptive` is the only scheduler (AMALTHEA's FixedPriorityPreemptive).
struct CpuCore {
    std::string name;
    SourceLocation where;
};

struct CpuTask {
    std::string name;
    std::vector<int> cpus{0};        // its affinity: indices into CpuSide::cpus, distinct, at least one
    std::int64_t priority = 0;       // larger runs first, as in AMALTHEA; equal priorities delay each other
    Arrival arrival;                 // periodic or sporadic, never Kind::none; jitter 0
    Interval<Time> execution{0, 0};  // before the GPU wait (or the whole job without one)
    std::optional<int> gpu;          // index into Workload::streams: the frame it releases
    Interval<Time> after_gpu{0, 0};  // after the wait
    SourceLocation where;
};

// An upper limit on the response time of every job of a task (release to end) or of every frame
// of a stream (its release to its last operation's completion). A requirement the model states on
// a task the workload does not contain (an import left it out) is kept, `not_analysed`, so that
// every certificate lists it as unchecked instead of losing it.
struct Requirement {
    enum class Target { cpu_task, stream, not_analysed };
    std::string name;
    Target target = Target::cpu_task;
    int index = 0;         // into Workload::cpu_tasks or Workload::streams
    std::string left_out;  // with not_analysed: the model's name of the task
    Time response_time = 0;
    SourceLocation where;
};

// Whether some task may run on several cores (docs/decisions/0034-cpu-affinity.md): its bound
// then rests on the scheduler being work-conserving over every affinity.
inline bool has_multi_core_affinity(const std::vector<CpuTask>& tasks) {
    for (const CpuTask& t : tasks)
        if (t.cpus.size() > 1) return true;
    return false;
}

struct CpuSide {
    std::vector<CpuCore> cpus;
    std::vector<CpuTask> tasks;
    std::vector<Requirement> requirements;
    bool empty() const { return cpus.empty() && tasks.empty() && requirements.empty(); }
    // The task whose `gpu` is stream `s`, if any (at most one, checked on reading).
    std::optional<int> driver_of(int stream) const {
        for (std::size_t i = 0; i < tasks.size(); ++i)
            if (tasks[i].gpu == stream) return static_cast<int>(i);
        return std::nullopt;
    }
};

// The release window of a driven stream's frames: the task's release plus its pre-GPU part, at
// least its shortest execution and at most `pre_gpu_bound` (a proven response of that part).
inline Arrival driven_arrival(const CpuTask& t, const Time& pre_gpu_bound) {
    Arrival a = t.arrival;
    a.offset = t.arrival.offset + t.execution.lo;
    a.jitter = pre_gpu_bound - t.execution.lo;
    return a;
}

}  // namespace gpuwcrt
