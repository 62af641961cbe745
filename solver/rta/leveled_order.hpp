#pragma once
// Constructed incumbents for the search (docs/theory/rta/rta-soundness.md, "Incumbents"): "level, then
// raise". k's finish is high when, just before k, G − g_k + 1 slots end late and the others
// are as late as possible. Longest C first (LPT) leaves the slots nearly level; a set S of
// kernels of one block length moved to the very end then raises exactly as many slots as its
// blocks, all from that level. So for each block length c and each total σ of slots that
// some subset of the length-c kernels reaches, the order "the rest longest C first, then that
// subset" is tried, with each stream's kernels put back into stream order in the places the
// stream holds (so releases and streams are kept). Each order is evaluated by Algorithm 2:
// the result is a real f_k, never a bound.
#include <chrono>
#include <optional>
#include <vector>

#include "common/budget.hpp"
#include "solver/rta/order_problem.hpp"
#include "solver/rta/local_search.hpp"

namespace gpuwcrt::rta_orders {

// `members`: the kernels that may precede k, in an order consistent with releases and streams.
// nullopt only when no order was built (a guard; a consistent `members` always gives one).
// Stops building orders when `budget` runs out (each costs an Algorithm 2 pass, long for huge grids).
std::optional<LocalResult> leveled_order(const RtaOrderProblem& p, int k, const std::vector<int>& members,
                                         const Budget& budget = Budget{});

}  // namespace gpuwcrt::rta_orders
