#include "solver/rta/state.hpp"

#include <algorithm>
#include <tuple>

namespace gpuwcrt::rta_orders {

void State::add_free(std::int64_t at, std::int64_t slots) {
    // h is short (at most one entry per distinct instant, <= g_max): a sorted vector.
    auto it = std::lower_bound(h.begin(), h.end(), at, [](const auto& e, std::int64_t t) { return e.first > t; });
    if (it != h.end() && it->first == at) it->second += slots;
    else h.insert(it, {at, slots});
}

std::int64_t State::add_kernel(std::int64_t release, std::int64_t c, std::int64_t slots) {
    // Release extension: t_a = max(t_a, r) and entries of h at or below it become free.
    if (release > t_a) {
        t_a = release;
        while (!h.empty() && h.back().first <= t_a) {
            g_f += h.back().second;
            h.pop_back();
        }
    }
    // Algorithm 2: the g_f free slots at t_a take part of the kernel, the rest waits for the
    // earliest entry of h.
    std::int64_t g_i = slots;
    while (g_f < g_i) {
        g_i -= g_f;
        if (g_f > 0) add_free(t_a + c, g_f);
        t_a = h.back().first;  // never empty: g_f + Σh = g_max >= 1 and g_f < g_i here
        g_f = h.back().second;
        h.pop_back();
    }
    const std::int64_t f = t_a + c;
    add_free(f, g_i);
    g_f -= g_i;
    return f;
}

__int128 State::free_sum_from(std::int64_t at) const {
    __int128 sum = static_cast<__int128>(g_f) * std::max(t_a, at);
    for (const auto& [t, n] : h) sum += static_cast<__int128>(n) * std::max(t, at);
    return sum;
}

bool State::later_or_equal(const State& o) const {
    if (t_a < o.t_a) return false;
    // Compare the sorted multisets of free instants slot by slot, earliest first: (t_a × g_f,
    // then h from its back).
    std::size_t i = h.size(), j = o.h.size();
    std::int64_t left_a = g_f, left_b = o.g_f;
    std::int64_t at_a = t_a, at_b = o.t_a;
    for (;;) {
        while (left_a == 0 && i > 0) {
            --i;
            at_a = h[i].first;
            left_a = h[i].second;
        }
        while (left_b == 0 && j > 0) {
            --j;
            at_b = o.h[j].first;
            left_b = o.h[j].second;
        }
        if (left_a == 0 || left_b == 0) return true;  // both run out together (same g_max)
        if (at_a < at_b) return false;
        const std::int64_t k = std::min(left_a, left_b);
        left_a -= k;
        left_b -= k;
    }
}

}  // namespace gpuwcrt::rta_orders

namespace gpuwcrt::rta_orders {
namespace {

// The free instants of a state, earliest first, as (instant, slots) runs; slots free at or
// before t_a count as free at t_a.
std::vector<std::pair<std::int64_t, std::int64_t>> runs(const State& s) {
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    if (s.g_f > 0) out.push_back({s.t_a, s.g_f});
    for (auto it = s.h.rbegin(); it != s.h.rend(); ++it) out.push_back(*it);
    return out;
}

}  // namespace

State pointwise_later(const State& a, const State& b) {
    const auto ra = runs(a), rb = runs(b);
    State out;
    out.t_a = std::max(a.t_a, b.t_a);
    std::vector<std::pair<std::int64_t, std::int64_t>> merged;  // earliest first
    std::size_t i = 0, j = 0;
    std::int64_t left_a = 0, left_b = 0, at_a = 0, at_b = 0;
    for (;;) {
        if (left_a == 0 && i < ra.size()) std::tie(at_a, left_a) = ra[i++];
        if (left_b == 0 && j < rb.size()) std::tie(at_b, left_b) = rb[j++];
        if (left_a == 0 || left_b == 0) break;  // both run out together (same g_max)
        const std::int64_t n = std::min(left_a, left_b);
        const std::int64_t at = std::max({at_a, at_b, out.t_a});
        if (!merged.empty() && merged.back().first == at) merged.back().second += n;
        else merged.push_back({at, n});
        left_a -= n;
        left_b -= n;
    }
    for (const auto& [at, n] : merged) {
        if (at == out.t_a) out.g_f += n;
        else out.h.insert(out.h.begin(), {at, n});
    }
    return out;
}

}  // namespace gpuwcrt::rta_orders
