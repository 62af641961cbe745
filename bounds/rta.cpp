#include "bounds/rta.hpp"

#include <map>
#include <stdexcept>

namespace gpuwcrt {
namespace {

void check_input(const std::vector<RtaKernel>& kernels, std::int64_t g_max) {
    if (g_max < 1) throw std::invalid_argument("RTA: g_max must be at least 1");
    for (const RtaKernel& k : kernels)
        if (k.slots < 1 || k.c <= 0) throw std::invalid_argument("RTA: every kernel needs slots >= 1 and C > 0");
}

}  // namespace

namespace {

// Algorithm 2 on any exact time type: Time itself, or integers after scaling every time by the
// common denominator (the same instants, an order of magnitude faster when they fit in 64 bits).
template <class T>
std::vector<T> algorithm2(const std::vector<T>& release, const std::vector<T>& c,
                          const std::vector<RtaKernel>& kernels, std::int64_t g_max) {
    std::vector<T> f;
    f.reserve(kernels.size());
    T t_a = 0;
    std::int64_t g_f = g_max;
    std::map<T, std::int64_t> h;  // instant -> slots that become free then; every key > t_a
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        if (release[i] > t_a) {
            t_a = release[i];
            while (!h.empty() && h.begin()->first <= t_a) {
                g_f += h.begin()->second;
                h.erase(h.begin());
            }
        }
        std::int64_t g_i = kernels[i].slots;
        while (g_f < g_i) {
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
        release.push_back(numerator(Time(k.release * scale)));
        c.push_back(numerator(Time(k.c * scale)));
        bound = std::max(bound, release.back());
    }
    for (std::size_t i = 0; i < kernels.size(); ++i) bound += c[i] * kernels[i].slots;
    std::vector<Time> f;
    f.reserve(kernels.size());
    if (bound < BigInt(1) << 62) {
        std::vector<std::int64_t> r64(release.begin(), release.end()), c64(c.begin(), c.end());
        for (std::int64_t x : algorithm2(r64, c64, kernels, g_max)) f.push_back(Time(x) / scale);
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
        if (k.c != kernels.front().c || k.release != kernels.front().release) return false;
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
        const std::int64_t K = (g_i - g_f - 1) / g_max;              // eq. 3.12, corrected
        t_a += c * (K + 1);                                          // eq. 3.14
        g_f = g_max - (g_i - g_f - K * g_max);                       // eq. 3.15
        f.push_back(t_a + c);
    }
    return f;
}

}  // namespace gpuwcrt
