#pragma once
// The explicit engine of sessions 1-5: depth-first search over count vectors with every state
// memoised (worst or best cycles still to come). explicit_extreme now sweeps frontiers
// instead (bounds/warp_frontier); this one stays as an independent second implementation
// over the same step relation, which tests compare with the sweep on small points.
// Stopped by the budget, it answers no bound.
#include "bounds/warp_explicit.hpp"

namespace gpuwcrt {

WarpExtreme memo_extreme(const WarpProblem& problem, WarpGoal goal, const WarpBudget& budget = WarpBudget());

}  // namespace gpuwcrt
