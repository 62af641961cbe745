#pragma once
// One schedule of CPU tasks on cores, fixed priorities, preemptive, each job running its first
// part, suspending, then running its second part (docs/theory/semantics.md §11): the reference
// the CPU response-time analysis (bounds/cpu/) is tested against. At every instant the ready jobs
// take cores in priority order, each the first free core of its affinity in the affinity's order
// (so a job waits only while every core of its affinity runs a job of equal or higher priority,
// docs/decisions/0034-cpu-affinity.md); a job may migrate whenever the assignment changes.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "model/time.hpp"

namespace gpuwcrt {

struct CpuSimTask {
    std::int64_t priority = 0;  // larger runs first
    Time period, offset;        // job k released at offset + k·period
    int tie_rank = 0;           // among equal priorities, the smaller rank runs first
    std::vector<int> cores{0};  // its affinity, in the order free cores are taken
};

// What job k of a task does: its execution before and after its suspension, and the suspension.
struct CpuJobTimes {
    Time pre, suspension, post;
};

// One job's run: when its first part ended (its GPU frame's release) and when it ended; unset
// when that did not happen by 4·horizon.
struct CpuJobRun {
    Time release;
    std::optional<Time> pre_end, end;
};

struct CpuSimResult {
    std::vector<Time> response, pre;           // per task, the largest over the jobs released before the horizon
    bool unfinished = false;                   // some job released before the horizon did not end by 4·horizon
    std::vector<std::vector<CpuJobRun>> jobs;  // per task, per job in release order
};

// Jobs of one task run in order (job k+1 starts after job k ends). Every job released before
// `horizon` is followed to its end. The run is computed in whole multiples of the values' common
// denominator when every instant fits 64 bits that way, else in rationals (`rationals_only`,
// test-only, always): the same run.
CpuSimResult simulate_cpu(const std::vector<CpuSimTask>& tasks,
                          const std::function<CpuJobTimes(std::size_t task, std::int64_t job)>& times,
                          const Time& horizon, bool rationals_only = false);

}  // namespace gpuwcrt
