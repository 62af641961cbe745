#pragma once
// An exact "tail" check for the search's bound (docs/theory/rta/rta-soundness.md, "Bounds", "Tail
// check"): can any order of the kernels still to come give k an Algorithm 2 finish >= target?
// It enumerates the final free-instant profiles that would give k that finish and peels
// kernels off them backward (the inverse of Algorithm 2's step, docs/theory/semantics.md §7), keeping only
// profiles that the kernels left could still produce. Stream order is ignored (a superset of
// orders, so "impossible" stays true for the real ones).
//
// Premise (the caller's): every kernel still to come, and k, is released at or before the
// state's t_a, so no slot idles and releases play no part.
#include <chrono>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "common/budget.hpp"
#include "solver/rta/state.hpp"

namespace gpuwcrt::rta_orders {

enum class TailAnswer {
    impossible,  // proven: no order of `rest` gives k an f >= target
    possible,    // some order does (a profile chain back to the state was found)
    unknown,     // the step budget ran out, or the problem is outside what the check handles
};

struct TailResult {
    TailAnswer answer = TailAnswer::unknown;
    // possible: an order of `rest` (indices into it) that the chain found; its f_k >= target
    // when stream order allows it (the caller evaluates it before using it).
    std::vector<int> order;
};

// `rest`: the kernels still to come before k, as (C, slots); `steps`: elementary steps
// (profiles built or visited) before the answer is unknown, as it is once `budget` runs out.
TailResult tail_reaches(const State& from, std::int64_t g_max,
                        const std::vector<std::pair<std::int64_t, std::int64_t>>& rest, std::int64_t c_k,
                        std::int64_t slots_k, std::int64_t target, long long steps, const Budget& budget = Budget{});

}  // namespace gpuwcrt::rta_orders
