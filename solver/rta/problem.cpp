#include "solver/rta/problem.hpp"

#include "bounds/rta/rta_workload.hpp"
#include "model/checked_int.hpp"
#include "model/integer_time.hpp"

namespace gpuwcrt::rta_orders {

WorkloadOrders workload_orders(const Workload& w) {
    WorkloadOrders out;
    RtaOrderProblem& p = out.problem;
    const OneBigSm big = one_big_sm(w);
    p.g_max = big.g_max;
    const std::vector<Time> releases = rta_releases(w);
    std::vector<Time> times;  // per kernel: its release, its C
    for (std::size_t i = 0; i < w.ops.size(); ++i)
        if (w.ops[i].is_kernel()) {
            out.op.push_back(static_cast<int>(i));
            times.push_back(releases[i]);
            times.push_back(w.ops[i].time.hi);  // the RTA uses the upper end, as simulation does
        }
    const ScaledTimes ticks = scale_times(times);
    out.scale = Time(ticks.scale);
    std::int64_t horizon = 0;
    for (std::size_t k = 0; k < out.op.size(); ++k) {
        const Operation& o = w.ops[out.op[k]];
        const auto release = ticks.fitting(2 * k), c = ticks.fitting(2 * k + 1);
        if (!release || !c)
            throw InputError(o.where, "kernel '" + o.name + "': a time scaled by the common denominator " +
                                          ticks.scale.str() + " exceeds the RTA order search's limit of 2^50");
        p.release.push_back(*release);
        p.c.push_back(*c);
        p.slots.push_back(big.slots_of(o));
        horizon = std::max(horizon, *release);
    }
    for (int k = 0; k < p.kernels(); ++k) {
        const auto area = checked_mul(p.slots[k], p.c[k]);
        const auto sum = area ? checked_add(horizon, *area) : std::nullopt;
        if (!sum || !fits_ticks(*sum))
            throw InputError(w.ops[out.op[k]].where,
                             "kernel '" + w.ops[out.op[k]].name +
                                 "': the RTA's instants (latest release + Σ slots x C, scaled) exceed the order "
                                 "search's limit of 2^50");
        horizon = *sum;
    }
    p.horizon = horizon;
    for (int op : out.op) {
        p.stream.push_back(w.ops[op].stream);
        p.position.push_back(w.ops[op].position);
    }
    return out;
}

}  // namespace gpuwcrt::rta_orders
