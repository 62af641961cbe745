#include "bounds/rta/rta.hpp"

#include <stdexcept>

#include "bounds/rta/algorithm2.hpp"
#include "model/integer_time.hpp"
#include "model/time_less.hpp"

namespace gpuwcrt {
namespace {

void check_input(const std::vector<RtaKernel>& kernels, std::int64_t g_max) {
    if (g_max < 1) throw std::invalid_argument("RTA: g_max must be at least 1");
    for (const RtaKernel& k : kernels)
        if (k.slots < 1 || k.c.sign() <= 0) throw std::invalid_argument("RTA: every kernel needs slots >= 1 and C > 0");
}

template <class T>
std::vector<T> algorithm2(const std::vector<T>& release, const std::vector<T>& c, const std::vector<RtaKernel>& kernels,
                          std::int64_t g_max) {
    std::vector<T> f;
    f.reserve(kernels.size());
    auto state = Algorithm2State<T>::empty(g_max);
    for (std::size_t i = 0; i < kernels.size(); ++i) f.push_back(state.add_kernel(release[i], c[i], kernels[i].slots));
    return f;
}

}  // namespace

std::vector<Time> rta_algorithm2(const std::vector<RtaKernel>& kernels, std::int64_t g_max) {
    check_input(kernels, g_max);
    std::vector<Time> all;  // per kernel: its release, its C
    for (const RtaKernel& k : kernels) all.insert(all.end(), {k.release, k.c});
    const ScaledTimes ticks = scale_times(all);
    auto release = [&](std::size_t i) -> const BigInt& { return ticks.ticks[2 * i]; };
    auto c = [&](std::size_t i) -> const BigInt& { return ticks.ticks[2 * i + 1]; };
    // No instant exceeds the latest release plus every kernel's slots each taking C in turn.
    BigInt bound = 0;
    for (std::size_t i = 0; i < kernels.size(); ++i) bound = std::max(bound, release(i));
    for (std::size_t i = 0; i < kernels.size(); ++i) bound += c(i) * kernels[i].slots;
    std::vector<Time> f;
    f.reserve(kernels.size());
    if (fits_ticks(bound)) {  // the same instants in int64, much faster than BigInt
        std::vector<std::int64_t> r64, c64;
        for (std::size_t i = 0; i < kernels.size(); ++i) {
            r64.push_back(static_cast<std::int64_t>(release(i)));
            c64.push_back(static_cast<std::int64_t>(c(i)));
        }
        const std::optional<std::int64_t> scale = small_int(ticks.scale);
        for (std::int64_t x : algorithm2(r64, c64, kernels, g_max))
            f.push_back(scale ? time_fraction(x, *scale) : Time(BigInt(x), ticks.scale));
        return f;
    }
    std::vector<BigInt> rb, cb;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        rb.push_back(release(i));
        cb.push_back(c(i));
    }
    for (const BigInt& x : algorithm2(rb, cb, kernels, g_max)) f.push_back(Time(x, ticks.scale));
    return f;
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
