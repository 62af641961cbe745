#pragma once
// The exhaustive engine: every scenario of docs/theory/semantics.md §5 (launch orders consistent with streams and
// issue times; unless a policy is fixed, every SM where each block fits) through the simulator.
// It is the reference the SMT engine is tested against and the baseline benchmarks measure.
#include <functional>
#include <vector>

#include "bounds/answer.hpp"
#include "bounds/engine_options.hpp"
#include "bounds/engine_stats.hpp"
#include "common/budget.hpp"

namespace gpuwcrt {

constexpr long max_grid_combinations = 4096;

struct EnumerationResult {
    std::vector<WcrtAnswer> wcrt;  // one per operation, indexed like Workload::ops
    EngineStats stats;
    bool complete = false;  // false: stopped by the timeout; answers are lower bounds
};

// Block-time intervals and issue windows: every combination of values on the grid (1 / the
// common denominator of all times, as the SMT engine), each block's time chosen separately;
// the maximum is then exact only where it meets the busy-time bound (grid_maximum_reason).
// Throws InputError (exit 3) beyond max_grid_combinations combinations of grid values.
// Stops (complete = false) once `budget` runs out. `progress` (optional) is called now and then
// with the number of scenarios done so far.
EnumerationResult enumerate_wcrt(const Workload& w, const EngineOptions& o, const Budget& budget,
                                 const std::function<void(long long)>& progress = {});

// Calls `visit` with the ranks of every launch order (docs/theory/semantics.md §5) of the workload.
void for_each_launch_order(const Workload& w, const std::function<bool(const std::vector<long>&)>& visit);

}  // namespace gpuwcrt
