#pragma once
// The forward engine for "RTA maximised over launch orders": one pass over the prefix SETS of
// the orders (not the orders themselves), keeping per set only the Pareto-latest Algorithm 2
// states. By Lemma 1 of docs/rta/rta-soundness.md ("Monotonicity") a state pointwise no later than
// another of the same set can give no kernel a later f after any continuation, so dropping it
// loses no maximum; by Lemma 2 kernel k's maximum is reached after the set P_k of every kernel
// that may precede k, so f_k's maximum is read off the Pareto states of P_k, for every kernel
// in the same pass. Kernels of one release that are interchangeable (same C and slots, alone in
// their stream at that release) are counted, not named; a stream's kernels of one release are
// a chain (its prefix length). When a set holds more than `max_states` states the rest are
// folded into a few pointwise-later "hull" states (sound upper bounds, no order): kernels whose
// maximum then comes from a hull get a proven bound and the best real order, not a value.
// Measured (bench/RESULTS.md, "rta_orders"): with one release for all kernels every state of
// a set has the same sum of free instants, so none dominates another and the sets hold
// hundreds of states; hulls of them are weaker than the search's bounds. The search stays the
// default; this pass is kept for the comparison and for staggered releases, where it prunes.
#include <chrono>
#include <cstddef>
#include <optional>

#include "solver/rta/search.hpp"

namespace gpuwcrt::rta_orders {

// The shape of the pass (how much it keeps), not what it may spend.
struct PrefixSetOptions {
    std::size_t max_sets = std::size_t{1} << 21;  // prefix sets of one release; more: not attempted
    std::size_t max_states = 4096;                // real states kept per set
    std::size_t max_hulls = 4;  // hull states per set beyond them (each merges the states it raises least)
};

// Same answer shape as search_max_finish. Returns with complete = false and nothing decided
// when one release has more prefix sets than `options.max_sets` (the caller then uses the
// branch and bound), or when the budget runs out on the way.
SearchResult prefix_sets_max_finish(const RtaOrderProblem& p, const Budget& budget, PrefixSetOptions options = {});

}  // namespace gpuwcrt::rta_orders
