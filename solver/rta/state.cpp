#include "solver/rta/state.hpp"

#include <algorithm>

namespace gpuwcrt::rta_orders {

__int128 free_sum_from(const State& s, std::int64_t at) {
    __int128 sum = static_cast<__int128>(s.g_f) * std::max(s.t_a, at);
    for (const auto& [t, n] : s.h) sum += static_cast<__int128>(n) * std::max(t, at);
    return sum;
}

bool later_or_equal(const State& a, const State& b) {
    if (a.t_a < b.t_a) return false;
    // Compare the sorted multisets of free instants slot by slot, earliest first: (t_a × g_f,
    // then h from its back).
    std::size_t i = a.h.size(), j = b.h.size();
    std::int64_t left_a = a.g_f, left_b = b.g_f;
    std::int64_t at_a = a.t_a, at_b = b.t_a;
    for (;;) {
        while (left_a == 0 && i > 0) {
            --i;
            at_a = a.h[i].first;
            left_a = a.h[i].second;
        }
        while (left_b == 0 && j > 0) {
            --j;
            at_b = b.h[j].first;
            left_b = b.h[j].second;
        }
        if (left_a == 0 || left_b == 0) return true;  // both run out together (same g_max)
        if (at_a < at_b) return false;
        const std::int64_t k = std::min(left_a, left_b);
        left_a -= k;
        left_b -= k;
    }
}

}  // namespace gpuwcrt::rta_orders
