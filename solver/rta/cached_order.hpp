#pragma once
// One order of the kernels that may precede k, with Algorithm 2's state after each of its
// prefixes kept (state.hpp), so that a move is evaluated from the first position it changes
// only, and checked against releases and streams in O(distance moved) — the local search's
// (local_search.hpp) inner loop. Moves: take the kernel at `from` out and insert it at `to`
// (insertion), or exchange two positions (swap).
#include <cstdint>
#include <vector>

#include "solver/rta/order_problem.hpp"
#include "solver/rta/state.hpp"

namespace gpuwcrt::rta_orders {

struct Move {
    enum Kind : std::uint8_t { insertion, swap } kind = insertion;
    int from = 0, to = 0;
    int first_changed() const { return from < to ? from : to; }
};

class CachedOrder {
public:
    CachedOrder(const RtaOrderProblem& p, std::vector<int> order);

    const std::vector<int>& order() const { return order_; }
    int size() const { return static_cast<int>(order_.size()); }
    // The state after the whole order (before k).
    const State& final_state() const { return states_.back(); }

    // Does the move keep releases non-decreasing and every stream's order?
    bool allowed(const Move& m) const;
    // The state after the order with `m` applied, computed into `out` from the cached state
    // before the first changed position (no allocation once `out` has grown).
    void evaluate(const Move& m, State& out) const;
    void apply(const Move& m);
    // Replaces the order (assumed consistent) and recomputes every state.
    void reset(std::vector<int> order);

private:
    int kernel_after(const Move& m, int i) const;  // the kernel at position i once m is applied
    void recompute_from(int i);

    const RtaOrderProblem& p_;
    std::vector<int> order_;
    std::vector<State> states_;  // states_[i]: after order_[0..i-1]
};

}  // namespace gpuwcrt::rta_orders
