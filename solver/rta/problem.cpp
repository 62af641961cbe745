#include "solver/rta/problem.hpp"

#include "bounds/rta/rta_workload.hpp"
#include "model/checked_int.hpp"

namespace gpuwcrt::rta_orders {
namespace {

constexpr std::int64_t limit = std::int64_t{1} << 62;

std::int64_t scaled(const Time& t, const BigInt& scale, const Operation& o) {
    const BigInt v = numerator(t) * (scale / denominator(t));
    if (v >= limit)
        throw InputError(o.where, "kernel '" + o.name + "': a time scaled by the common denominator " + scale.str() +
                                      " exceeds the RTA order search's limit of 2^62");
    return static_cast<std::int64_t>(v);
}

}  // namespace

WorkloadOrders workload_orders(const Workload& w) {
    WorkloadOrders out;
    RtaOrderProblem& p = out.problem;
    const OneBigSm big = one_big_sm(w);
    p.g_max = big.g_max;
    const std::vector<Time> releases = rta_releases(w);
    std::vector<Time> times;
    for (std::size_t i = 0; i < w.ops.size(); ++i)
        if (w.ops[i].is_kernel()) {
            out.op.push_back(static_cast<int>(i));
            times.push_back(releases[i]);
            times.push_back(w.ops[i].time.hi);  // the RTA uses the upper end, as simulation does
        }
    const BigInt scale = common_denominator(times);
    out.scale = Time(scale);
    std::int64_t horizon = 0;
    for (int op : out.op) {
        const Operation& o = w.ops[op];
        p.release.push_back(scaled(releases[op], scale, o));
        p.c.push_back(scaled(o.time.hi, scale, o));
        p.slots.push_back(big.slots_of(o));
        horizon = std::max(horizon, p.release.back());
    }
    for (int k = 0; k < p.kernels(); ++k) {
        const auto area = checked_mul(p.slots[k], p.c[k]);
        const auto sum = area ? checked_add(horizon, *area) : std::nullopt;
        if (!sum || *sum >= limit)
            throw InputError(w.ops[out.op[k]].where,
                             "kernel '" + w.ops[out.op[k]].name +
                                 "': the RTA's instants (latest release + Σ slots x C, scaled) exceed the order "
                                 "search's limit of 2^62");
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
