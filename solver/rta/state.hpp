#pragma once
// The state of the thesis' Algorithm 2 (SPEC §7) after a prefix of a launch order, in scaled
// integers: t_a, the g_f slots free at t_a, and h (instant -> slots that become free then).
// This file is the dedicated search's copy of the rule of SPEC §7 "Algorithm 2" (bounds/rta/rta.cpp
// is the reference; tests/test_rta_orders.cpp checks the two agree on every order it tries).
#include <cstdint>
#include <utility>
#include <vector>

namespace gpuwcrt::rta_orders {

struct State {
    std::int64_t t_a = 0;
    std::int64_t g_f = 0;
    // h, latest instant first (the earliest is popped from the back); every instant > t_a.
    std::vector<std::pair<std::int64_t, std::int64_t>> h;

    static State empty(std::int64_t g_max) { return {0, g_max, {}}; }

    // Analyses one more kernel (SPEC §7, with the release extension) and returns its f.
    std::int64_t add_kernel(std::int64_t release, std::int64_t c, std::int64_t slots);

    // Σ over the g_max slots of max(free instant, at): the "area" the slots have used up to
    // `at` (>= t_a) or beyond — the sum the search's upper bound starts from.
    __int128 free_sum_from(std::int64_t at) const;

    // Every slot frees no earlier here than in `o`, and t_a is no earlier (docs/rta/rta-soundness.md,
    // "Monotonicity"): then no continuation gives any kernel an earlier f here than from `o`.
    bool later_or_equal(const State& o) const;

    bool operator==(const State&) const = default;

private:
    void add_free(std::int64_t at, std::int64_t slots);
};

}  // namespace gpuwcrt::rta_orders

namespace gpuwcrt::rta_orders {

// The pointwise later of two states (t_a the later, the i-th earliest free instant the later):
// a state no reachable from either is later than (docs/rta/rta-soundness.md, "Monotonicity": every
// continuation from it gives each kernel an f at least as late as from a or from b). Used as a
// sound stand-in ("hull") for states not kept one by one.
State pointwise_later(const State& a, const State& b);

}  // namespace gpuwcrt::rta_orders
