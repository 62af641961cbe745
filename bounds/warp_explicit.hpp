#pragma once
// Exact worst- and best-case makespan of the warp model by memoised search over count
// vectors (warps are interchangeable, so permuting them never yields a new state).
#include <cstddef>
#include <vector>

#include "bounds/warp_step.hpp"

namespace gpuwcrt {

enum class WarpGoal { worst, best };

struct WarpExtreme {
    int makespan = 0;
    std::vector<WarpIssue> issues;  // one optimal interleaving, cycle by cycle
    std::size_t states = 0;         // distinct states visited
};

WarpExtreme explicit_extreme(const WarpProblem& problem, WarpGoal goal);

}  // namespace gpuwcrt
