#pragma once
// Exact worst- and best-case makespan of the warp model over count vectors (warps are
// interchangeable, so permuting them never yields a new state), by the frontier sweep of
// solver/warp/warp_frontier (one cycle per step, no recursion). It obeys a Budget: out of time
// or memory it stops and answers with a greedy bound only.
#include <cstddef>
#include <optional>
#include <vector>

#include "common/budget.hpp"
#include "sim/warp/warp_step.hpp"

namespace gpuwcrt {

enum class WarpGoal { worst, best };

struct WarpExtreme {
    // Without `stopped`: the exact makespan, realised by `issues`. With it: none is known.
    int makespan = 0;
    std::vector<WarpIssue> issues;  // one optimal interleaving, cycle by cycle
    std::size_t states = 0;         // states visited (distinct within each cycle)
    std::optional<StopReason> stopped;
    // When stopped: the makespan of a greedy legal schedule, a lower bound on the worst case
    // (an upper bound on the best), if the greedy schedule itself was finished in time.
    std::optional<int> bound;
};

WarpExtreme explicit_extreme(const WarpProblem& problem, WarpGoal goal, const Budget& budget = Budget());

}  // namespace gpuwcrt
