#pragma once
// Response-time bounds of CPU tasks on cores scheduled by fixed priorities, preemptively, whose
// jobs may suspend themselves once (the wait for their GPU frame) for at most a given time
// (docs/theory/semantics.md §11, docs/decisions/0030-cpu-side.md). Two sound analyses, the
// smaller bound per task:
// - suspension-oblivious: every suspension counted as execution (Chen et al., "Many
//   suspensions, many problems", Real-Time Systems 55, 2019, §4.1);
// - jitter-based: a suspending interferer's jobs released with jitter R_j - C_j (ibid. §4.2,
//   proven by Chen, Nelissen and Huang, ECRTS 2016; Bletsas et al.'s errata, 2018); where that
//   is larger, or R_j unknown, a suspending interferer's work in a window counted by its bursts
//   between suspensions of at least their shortest length (docs/theory/semantics.md §11), which
//   needs no bound on its response: both bound the same work in any window, so the smaller does.
// Tasks of equal priority on a core each interfere with the other as a higher-priority task
// would, so every tie-breaking order is covered.
// A task may be allowed on several cores (docs/decisions/0034-cpu-affinity.md): with a scheduler
// work-conserving over every affinity, its bound is the least over its cores c of the bound on c
// counting every task allowed on c; the suspension-oblivious argument only on a core whose tasks
// are all pinned to it (a uniprocessor), the jitter-based one (a workload bound that holds in any
// schedule) on every core.
#include <cstdint>
#include <optional>
#include <vector>

#include "model/time.hpp"

namespace gpuwcrt {

struct CpuRtaTask {
    std::vector<int> cores{0};  // its affinity, at least one
    std::int64_t priority = 0;  // larger runs first
    Time period;                // or minimum inter-arrival time
    Time pre, post;             // longest execution before and after the suspension
    bool suspends = false;
    std::optional<Time> suspension;  // longest suspension of a suspending task; none: unbounded
    Time least_suspension = 0;       // every suspension lasts at least this
};

enum class CpuArgument { none, oblivious, jitter };

// A task's bounds from its release: to the end of its pre-suspension part (when its frame is
// released) and to its end. None when the analysis proves nothing (a core overloaded, a
// response past the period, an unbounded suspension).
struct CpuRtaBound {
    std::optional<Time> pre, response;
    CpuArgument by = CpuArgument::none;
};

// Test-only mutations, so that the differential tests show they catch an unsound argument.
struct CpuRtaMutation {
    bool drop_equal_priorities = false;
    bool drop_own_suspension = false;
    bool count_only_pinned = false;  // on core c, only the tasks pinned to c alone delay a task
    bool max_over_cores = false;     // the largest per-core bound where the least is proven
    bool bursts_whole_only = false;  // a window's last burst counted only when it fits whole
    bool first_job_only = false;     // a busy period's first job taken for all of them
};

// Per task, indexed like `tasks`. A suspending task's bounds are only given where every job's
// response is at most the period (the analysis is of one job per busy window); a task that does
// not suspend is analysed over its busy period where a job may run past its period.
std::vector<CpuRtaBound> cpu_response_bounds(const std::vector<CpuRtaTask>& tasks, const CpuRtaMutation& m = {});

}  // namespace gpuwcrt
