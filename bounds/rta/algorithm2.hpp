#pragma once
// The state of the thesis' Algorithm 2 (docs/theory/semantics.md §7) after a prefix of a launch order: t_a, the g_f
// slots free at t_a, and h (instant -> slots that become free then), on integer instants (times
// scaled by their common denominator, model/integer_time.hpp). The one implementation of the
// rule: rta_algorithm2 (bounds/rta/rta.hpp) runs it over one order, the search over orders
// (solver/rta/search.hpp) extends prefixes with it.
#include <cstdint>
#include <utility>
#include <vector>

namespace gpuwcrt {

// T: std::int64_t, or BigInt when a workload's instants do not fit (both instantiated in
// algorithm2.cpp).
template <class T>
struct Algorithm2State {
    T t_a = 0;
    std::int64_t g_f = 0;
    // h, latest instant first (the earliest is popped from the back); every instant > t_a. Short
    // (one entry per distinct instant, at most g_max), so a sorted vector.
    std::vector<std::pair<T, std::int64_t>> h;

    static Algorithm2State empty(std::int64_t g_max) {
        Algorithm2State s;
        s.g_f = g_max;
        return s;
    }

    // Analyses one more kernel: `slots` block slots each held for c, from `release` on (the
    // release extension, ours: t_a = max(t_a, release), and the slots of h freed by then join
    // g_f). Returns its f.
    T add_kernel(const T& release, const T& c, std::int64_t slots);

    bool operator==(const Algorithm2State&) const = default;

private:
    void add_free(const T& at, std::int64_t slots);
    std::size_t skip_rounds(std::int64_t& g_i, const T& c);
};

}  // namespace gpuwcrt
