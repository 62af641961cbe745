#pragma once
// Exact worst- and best-case makespan of the warp model by a level-synchronous sweep: every
// step of WarpStepper is one cycle, so the states reachable after exactly c cycles form one
// frontier, computed from the previous one and deduplicated. The worst makespan is the first
// cycle whose frontier holds no unfinished state, the best the first cycle at which some
// state finishes. Both come out of one sweep; memory is the largest frontier (two, while one
// is expanded) instead of every state of the search, and a frontier may be expanded by
// several threads. Every successor of every state is visited: the oracle uses no lemma.
#include <cstddef>

#include "common/budget.hpp"
#include "solver/warp/warp_explicit.hpp"

namespace gpuwcrt {

struct WarpFrontierOptions {
    // Keep every frontier (packed key and one parent per state) to rebuild an optimal schedule
    // for each goal; without it only the makespans are known and memory is two frontiers.
    bool witness = true;
    unsigned threads = 1;
    // Stop at the first finishing cycle: only the best case is wanted.
    bool best_only = false;
};

struct WarpExtremes {
    // `stopped` set on a goal the sweep did not settle (the best case may be settled before
    // the budget runs out on the worst). `bound` is left empty: callers add their own.
    WarpExtreme worst, best;
    std::size_t peak_frontier = 0;  // most states of one cycle
};

WarpExtremes frontier_extremes(const WarpProblem& problem, const Budget& budget,
                               const WarpFrontierOptions& options = WarpFrontierOptions());

}  // namespace gpuwcrt
