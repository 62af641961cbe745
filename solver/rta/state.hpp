#pragma once
// The search's Algorithm 2 state (bounds/rta/algorithm2.hpp on scaled int64 instants) and the
// two facts about it the search's prunings use.
#include <cstdint>

#include "bounds/rta/algorithm2.hpp"

namespace gpuwcrt::rta_orders {

using State = Algorithm2State<std::int64_t>;

// Σ over the g_max slots of max(free instant, at): the "area" the slots have used up to `at`
// (>= t_a) or beyond — the sum the search's upper bound starts from.
__int128 free_sum_from(const State& s, std::int64_t at);

// Every slot frees no earlier in `a` than in `b`, and t_a is no earlier (docs/theory/rta/rta-soundness.md,
// "Monotonicity"): then no continuation gives any kernel an earlier f from `a` than from `b`.
bool later_or_equal(const State& a, const State& b);

}  // namespace gpuwcrt::rta_orders
