#include "bounds/rta/rta.hpp"

#include <limits>
#include <map>
#include <stdexcept>
#include <type_traits>

#include "model/time_less.hpp"

namespace gpuwcrt {
namespace {

void check_input(const std::vector<RtaKernel>& kernels, std::int64_t g_max) {
    if (g_max < 1) throw std::invalid_argument("RTA: g_max must be at least 1");
    for (const RtaKernel& k : kernels)
        if (k.slots < 1 || k.c.sign() <= 0) throw std::invalid_argument("RTA: every kernel needs slots >= 1 and C > 0");
}

}  // namespace

namespace {

// The largest whole number of rounds k with last + k·c < limit (limit > last, c > 0).
std::int64_t rounds_below(std::int64_t limit, std::int64_t last, std::int64_t c) { return (limit - last - 1) / c; }
std::int64_t rounds_below(const Time& limit, const Time& last, const Time& c) {
    const Time q = (limit - last) / c;
    BigInt k = numerator(q) / denominator(q);  // q > 0: floor
    if (Time(k) == q) --k;
    return k > std::numeric_limits<std::int64_t>::max() ? std::numeric_limits<std::int64_t>::max()
                                                        : static_cast<std::int64_t>(k);
}

// A kernel with far more slots than are free per C repeats one pattern: from (t_a, g_f) with
// entries W of h below t_a + c, one round (g_f, then each entry of W in turn) consumes
// r = g_f + ΣW slots and ends in the same state shifted by c, as long as no entry at or after
// t_a + c (L) is reached or hit by a push. Jumps over k such rounds at once (exactly what the
// step-by-step loop would do; a grid of 2^63 − 1 blocks would otherwise take 2^63 steps).
// Returns how many steps to take before trying again (one round), amortising the O(|W|) scan.
template <class T, class Map>
std::size_t skip_rounds(T& t_a, std::int64_t g_f, std::int64_t& g_i, const T& c, Map& h) {
    const auto later = h.lower_bound(t_a + c);
    std::int64_t r = g_f;  // <= g_max: no overflow
    T last = t_a;
    std::size_t m = 0;
    for (auto it = h.begin(); it != later; ++it, ++m) {
        r += it->second;
        last = it->first;
    }
    // Keep more than r slots for the step-by-step loop, so each skipped step was a loop step.
    std::int64_t k = (g_i - 1) / r - 1;
    if (later != h.end()) k = std::min(k, rounds_below(later->first, last, c));
    if (k < 1) return m + 1;
    const T shift = c * T(k);
    std::vector<std::pair<T, std::int64_t>> window(h.begin(), later);
    h.erase(h.begin(), later);
    for (auto& [at, slots] : window) h.emplace_hint(later, at + shift, slots);
    t_a += shift;
    g_i -= k * r;
    return m + 1;
}

// Algorithm 2 on any exact time type: Time itself, or integers after scaling every time by the
// common denominator (the same instants, without rational arithmetic when they fit in 64 bits).
template <class T>
std::vector<T> algorithm2(const std::vector<T>& release, const std::vector<T>& c, const std::vector<RtaKernel>& kernels,
                          std::int64_t g_max) {
    std::vector<T> f;
    f.reserve(kernels.size());
    T t_a = 0;
    std::int64_t g_f = g_max;
    std::map<T, std::int64_t, std::conditional_t<std::is_same_v<T, Time>, TimeLess, std::less<T>>>
        h;  // instant -> slots that become free then; every key > t_a
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        if (release[i] > t_a) {
            t_a = release[i];
            while (!h.empty() && h.begin()->first <= t_a) {
                g_f += h.begin()->second;
                h.erase(h.begin());
            }
        }
        std::int64_t g_i = kernels[i].slots;
        std::size_t steps_to_skip_check = 0;
        while (g_f < g_i) {
            if (g_f > 0 && g_i / 2 >= g_f && steps_to_skip_check-- == 0)
                steps_to_skip_check = skip_rounds(t_a, g_f, g_i, c[i], h);
            g_i -= g_f;
            if (g_f > 0) h[t_a + c[i]] += g_f;
            auto first = h.begin();  // never empty: g_f + Σh = g_max >= 1 and g_f = 0 here
            t_a = first->first;
            g_f = first->second;
            h.erase(first);
        }
        f.push_back(t_a + c[i]);
        h[f.back()] += g_i;
        g_f -= g_i;
    }
    return f;
}

}  // namespace

std::vector<Time> rta_algorithm2(const std::vector<RtaKernel>& kernels, std::int64_t g_max) {
    check_input(kernels, g_max);
    std::vector<Time> all;
    for (const RtaKernel& k : kernels) all.insert(all.end(), {k.release, k.c});
    const BigInt scale = common_denominator(all);
    // No instant exceeds the latest release plus every kernel's slots each taking C in turn.
    BigInt bound = 0;
    std::vector<BigInt> release, c;
    for (const RtaKernel& k : kernels) {
        // Integer operations only: scale is a multiple of every denominator.
        release.push_back(numerator(k.release) * (scale / denominator(k.release)));
        c.push_back(numerator(k.c) * (scale / denominator(k.c)));
        bound = std::max(bound, release.back());
    }
    for (std::size_t i = 0; i < kernels.size(); ++i) bound += c[i] * kernels[i].slots;
    std::vector<Time> f;
    f.reserve(kernels.size());
    if (bound < BigInt(1) << 62) {
        std::vector<std::int64_t> r64(release.begin(), release.end()), c64(c.begin(), c.end());
        for (std::int64_t x : algorithm2(r64, c64, kernels, g_max)) f.push_back(Time(BigInt(x), scale));
        return f;
    }
    std::vector<Time> rt, ct;
    for (const RtaKernel& k : kernels) {
        rt.push_back(k.release);
        ct.push_back(k.c);
    }
    return algorithm2(rt, ct, kernels, g_max);
}

bool rta_closed_form_applies(const std::vector<RtaKernel>& kernels) {
    for (const RtaKernel& k : kernels)
        if (!time_equal(k.c, kernels.front().c) || !time_equal(k.release, kernels.front().release)) return false;
    return true;
}

std::optional<std::vector<Time>> rta_closed_form(const std::vector<RtaKernel>& kernels, std::int64_t g_max) {
    check_input(kernels, g_max);
    if (!rta_closed_form_applies(kernels)) return std::nullopt;
    std::vector<Time> f;
    f.reserve(kernels.size());
    if (kernels.empty()) return f;
    const Time c = kernels.front().c;
    Time t_a = kernels.front().release;
    std::int64_t g_f = g_max;
    for (const RtaKernel& k : kernels) {
        const std::int64_t g_i = k.slots;
        if (g_i <= g_f) {  // α = 0
            f.push_back(t_a + c);
            g_f -= g_i;
            continue;
        }
        // α = 1: g_f slots at t_a, K full rounds of g_max, the rest (1..g_max) at the new t_a.
        const std::int64_t K = (g_i - g_f - 1) / g_max;  // eq. 3.12, corrected
        t_a += c * (K + 1);                              // eq. 3.14
        g_f = g_max - (g_i - g_f - K * g_max);           // eq. 3.15
        f.push_back(t_a + c);
    }
    return f;
}

}  // namespace gpuwcrt
