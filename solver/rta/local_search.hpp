#pragma once
// Incumbents for the branch and bound of solver/rta/search.hpp: a local search over the
// orders of the kernels that may precede k (insertion moves that keep releases and streams in
// order), maximising f_k and, on a plateau of f_k, the sum of the g_k earliest free instants
// k's blocks would take. It only proposes orders: each is evaluated by Algorithm 2 (state.hpp),
// so its value is a real f_k, never a bound; the search then only has to prove optimality.
#include <chrono>
#include <cstdint>
#include <vector>

#include "common/budget.hpp"
#include "solver/rta/order_problem.hpp"

namespace gpuwcrt::rta_orders {

struct LocalResult {
    std::int64_t finish;      // f_k of `prefix` followed by k
    std::vector<int> prefix;  // the members, in an order consistent with releases and streams
};

// `members`: the kernels that may precede k, in an order consistent with releases and streams.
// Stops when `budget` runs out, when f_k reaches `target` (a proven bound: nothing better exists), or
// after `restarts` perturbations in a row that found nothing better (seeded by k and `seed`,
// so runs repeat).
LocalResult local_search(const RtaOrderProblem& p, int k, std::vector<int> members, const Budget& budget, int restarts,
                         std::int64_t target, std::uint64_t seed = 0);

}  // namespace gpuwcrt::rta_orders
