#include "bounds/rta/algorithm2.hpp"

#include <algorithm>
#include <limits>

#include "model/time.hpp"

namespace gpuwcrt {
namespace {

// The largest whole number of rounds k with last + k·c < limit (limit > last, c > 0).
std::int64_t rounds_below(std::int64_t limit, std::int64_t last, std::int64_t c) { return (limit - last - 1) / c; }
std::int64_t rounds_below(const BigInt& limit, const BigInt& last, const BigInt& c) {
    const BigInt k = (limit - last - 1) / c;
    return k > std::numeric_limits<std::int64_t>::max() ? std::numeric_limits<std::int64_t>::max()
                                                        : static_cast<std::int64_t>(k);
}

}  // namespace

template <class T>
void Algorithm2State<T>::add_free(const T& at, std::int64_t slots) {
    auto it = std::lower_bound(h.begin(), h.end(), at, [](const auto& e, const T& t) { return e.first > t; });
    if (it != h.end() && it->first == at) it->second += slots;
    else h.insert(it, {at, slots});
}

// A kernel with far more slots than are free per C repeats one pattern: from (t_a, g_f) with
// entries W of h below t_a + c, one round (g_f, then each entry of W in turn) consumes
// r = g_f + ΣW slots and ends in the same state shifted by c, as long as no entry at or after
// t_a + c is reached or hit by a push. Jumps over k such rounds at once (exactly what the
// step-by-step loop would do; a grid of 2^63 − 1 blocks would otherwise take 2^63 steps).
// Returns how many steps to take before trying again (one round), amortising the O(|W|) scan.
template <class T>
std::size_t Algorithm2State<T>::skip_rounds(std::int64_t& g_i, const T& c) {
    const T end = t_a + c;
    std::size_t first_w = h.size();  // W is h[first_w..], the back of h
    while (first_w > 0 && h[first_w - 1].first < end) --first_w;
    std::int64_t r = g_f;  // <= g_max: no overflow
    for (std::size_t i = first_w; i < h.size(); ++i) r += h[i].second;
    const T last = first_w < h.size() ? h[first_w].first : t_a;
    const std::size_t m = h.size() - first_w;
    // Keep more than r slots for the step-by-step loop, so each skipped step was a loop step.
    std::int64_t k = (g_i - 1) / r - 1;
    if (first_w > 0) k = std::min(k, rounds_below(h[first_w - 1].first, last, c));
    if (k < 1) return m + 1;
    const T shift = c * T(k);
    for (std::size_t i = first_w; i < h.size(); ++i) h[i].first += shift;  // still below h[first_w - 1]
    t_a += shift;
    g_i -= k * r;
    return m + 1;
}

template <class T>
T Algorithm2State<T>::add_kernel(const T& release, const T& c, std::int64_t slots) {
    if (release > t_a) {
        t_a = release;
        while (!h.empty() && h.back().first <= t_a) {
            g_f += h.back().second;
            h.pop_back();
        }
    }
    // The g_f free slots at t_a take part of the kernel, the rest waits for the earliest entry of h.
    std::int64_t g_i = slots;
    std::size_t steps_to_skip_check = 0;
    while (g_f < g_i) {
        if (g_f > 0 && g_i / 2 >= g_f && steps_to_skip_check-- == 0) steps_to_skip_check = skip_rounds(g_i, c);
        g_i -= g_f;
        if (g_f > 0) add_free(t_a + c, g_f);
        t_a = h.back().first;  // never empty: g_f + Σh = g_max >= 1 and g_f < g_i here
        g_f = h.back().second;
        h.pop_back();
    }
    const T f = t_a + c;
    add_free(f, g_i);
    g_f -= g_i;
    return f;
}

template struct Algorithm2State<std::int64_t>;
template struct Algorithm2State<BigInt>;

}  // namespace gpuwcrt
