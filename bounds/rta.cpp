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

std::vector<Time> rta_algorithm2(const std::vector<RtaKernel>& kernels, std::int64_t g_max) {
    check_input(kernels, g_max);
    std::vector<Time> f;
    f.reserve(kernels.size());
    Time t_a = 0;
    std::int64_t g_f = g_max;
    std::map<Time, std::int64_t> h;  // instant -> slots that become free then; every key > t_a
    for (const RtaKernel& k : kernels) {
        if (k.release > t_a) {
            t_a = k.release;
            while (!h.empty() && h.begin()->first <= t_a) {
                g_f += h.begin()->second;
                h.erase(h.begin());
            }
        }
        std::int64_t g_i = k.slots;
        while (g_f < g_i) {
            g_i -= g_f;
            if (g_f > 0) h[t_a + k.c] += g_f;
            auto first = h.begin();  // never empty: g_f + Σh = g_max >= 1 and g_f = 0 here
            t_a = first->first;
            g_f = first->second;
            h.erase(first);
        }
        f.push_back(t_a + k.c);
        h[f.back()] += g_i;
        g_f -= g_i;
    }
    return f;
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
