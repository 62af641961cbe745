#pragma once
// A second explicit engine: depth-first search over count vectors with every state memoised
// (worst or best cycles still to come). explicit_extreme sweeps frontiers
// (solver/warp/warp_frontier), which needs far less memory; this one is an independent second
// implementation over the same step relation, which tests compare with the sweep on small points.
// Stopped by the budget, it answers no bound.
#include "solver/warp/warp_explicit.hpp"

namespace gpuwcrt {

WarpExtreme memo_extreme(const WarpProblem& problem, WarpGoal goal, const Budget& budget = Budget());

}  // namespace gpuwcrt
