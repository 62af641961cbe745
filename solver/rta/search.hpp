#pragma once
// The dedicated engine for "RTA maximised over launch orders": for each kernel k, a
// depth-first branch and bound over the orders of the kernels that may precede k, with k
// analysed right after them (docs/theory/rta/rta-soundness.md, "Monotonicity" proves that this loses no
// order and that the two prunings below are sound):
//   - dominance: a prefix whose Algorithm 2 state frees every slot no later than the state of
//     an already explored prefix of the same kernel set is not explored;
//   - bound: k's last slot starts by ⌊(Σ free instants + remaining area + (g_k − 1)·C_k) / g_max⌋
//     (every slot is busy until then), so a prefix whose bound is no better than the best
//     order found is not explored.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/budget.hpp"
#include "solver/rta/order_problem.hpp"

namespace gpuwcrt::rta_orders {

struct SearchResult {
    // Per kernel (problem index): the largest f over all orders (scaled), and an order (problem
    // indices, every kernel) that gives it; nullopt for a kernel the deadline left undecided.
    std::vector<std::optional<std::int64_t>> finish;
    std::vector<std::vector<int>> order;
    // Undecided kernels: the best f found (its order in `order`) and a proven bound on f.
    std::vector<std::optional<std::int64_t>> found, bound;
    long long nodes = 0;
    bool complete = false;  // every kernel asked for is decided
};

struct SearchOptions {
    // Seed each kernel's branch and bound with a local search's order (local_search.hpp). Off
    // only in tests: there the branch and bound alone must find every maximum, so that a
    // pruning that loses orders cannot hide behind a good incumbent.
    bool local_search = true;
};

// `only`: analyse that kernel alone (others stay nullopt). The time left is shared out evenly
// among the kernels still to decide, so that one hard kernel does not starve the others.
SearchResult search_max_finish(const RtaOrderProblem& p, const Budget& budget, std::optional<int> only = std::nullopt,
                               SearchOptions options = {});

// The bound on kernel k's f before any search (the branch and bound's root bound, proven in
// docs/theory/rta/rta-soundness.md, "Bounds"): what an undecided kernel shows when no search reached it.
std::int64_t root_bound(const RtaOrderProblem& p, int k);

// Completes a prefix (problem indices) to a whole order consistent with releases and streams.
std::vector<int> complete_order(const RtaOrderProblem& p, std::vector<int> prefix);

}  // namespace gpuwcrt::rta_orders
