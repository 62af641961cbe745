#include "solver/rta/max_over_orders.hpp"

#include "solver/registry.hpp"

#include <stdexcept>

#include "bounds/rta/rta_workload.hpp"
#include "solver/block/enumerate.hpp"
#include "solver/rta/prefix_sets.hpp"
#include "solver/rta/problem.hpp"
#include "solver/rta/search.hpp"
#include "solver/rta/smt_max.hpp"

namespace gpuwcrt {
namespace {

RtaMaxOverOrders by_enumeration(const Workload& w, const Budget& budget, long long limit) {
    RtaMaxOverOrders out;
    out.response.resize(w.ops.size());
    out.order.resize(w.ops.size());
    long long orders = 0;
    bool out_of_time = false;
    // The clock is read every 256 orders: one order's RTA is cheap, a clock read is not free.
    auto in_time = [&] { return orders % 256 != 0 || !(out_of_time = budget.expired()); };
    for_each_launch_order(w, [&](const std::vector<long>&) { return ++orders <= limit && in_time(); });
    if (orders > limit || out_of_time) {
        out.note = out_of_time ? "the --timeout ended first" : "more than " + std::to_string(limit) + " launch orders";
        return out;
    }
    orders = 0;
    for_each_launch_order(w, [&](const std::vector<long>& rank) {
        if (out_of_time || (++orders, !in_time())) return false;
        const RtaOutcome r = rta(w, rta_launch_order(w, rank));
        for (std::size_t i = 0; i < w.ops.size(); ++i) {
            auto v = r.response_of(static_cast<int>(i));
            if (v && (!out.response[i] || *v > *out.response[i])) {
                out.response[i] = v;
                out.order[i] = r.order;
            }
        }
        return true;
    });
    out.work = orders;
    if (out_of_time) {
        out.response.assign(w.ops.size(), std::nullopt);
        out.order.assign(w.ops.size(), {});
        out.note = "the --timeout ended first";
        return out;
    }
    out.complete = true;
    return out;
}

}  // namespace

std::string to_string(RtaOrdersEngine e) {
    switch (e) {
        case RtaOrdersEngine::search:
            return std::string(rta_orders_engine_name::search);
        case RtaOrdersEngine::smt:
            return std::string(rta_orders_engine_name::smt);
        case RtaOrdersEngine::enumerate:
            return std::string(rta_orders_engine_name::enumerate);
        case RtaOrdersEngine::sets:
            return std::string(rta_orders_engine_name::sets);
    }
    return "?";
}

RtaMaxOverOrders rta_max_over_orders(const Workload& w, RtaOrdersEngine engine, const Budget& budget,
                                     long long enumeration_limit) {
    if (engine == RtaOrdersEngine::enumerate) return by_enumeration(w, budget, enumeration_limit);
    const rta_orders::WorkloadOrders wo = rta_orders::workload_orders(w);
    const rta_orders::SearchResult s = engine == RtaOrdersEngine::smt ? rta_orders::smt_max_finish(wo.problem, budget)
                                       : engine == RtaOrdersEngine::sets
                                           ? rta_orders::prefix_sets_max_finish(wo.problem, budget)
                                           : rta_orders::search_max_finish(wo.problem, budget);
    RtaMaxOverOrders out;
    out.response.resize(w.ops.size());
    out.order.resize(w.ops.size());
    out.lower.resize(w.ops.size());
    out.upper.resize(w.ops.size());
    out.work = s.nodes;
    const std::vector<Time> releases = rta_releases(w);
    int undecided = 0;
    for (int k = 0; k < wo.problem.kernels(); ++k) {
        const int op = wo.op[k];
        const std::optional<std::int64_t> value = s.finish[k] ? s.finish[k] : s.found[k];
        if (!s.finish[k])  // a kernel no search reached still gets its root bound
            out.upper[op] =
                Time(s.bound[k] ? *s.bound[k] : rta_orders::root_bound(wo.problem, k)) / wo.scale - releases[op];
        undecided += !s.finish[k];
        if (!value) continue;
        std::vector<int> order;
        for (int j : s.order[k]) order.push_back(wo.op[j]);
        // Replay: the reference RTA on this order must give the engine's value.
        const RtaOutcome r = rta(w, order);
        if (r.finish_of(op) != Time(*value) / wo.scale)
            throw std::logic_error("RTA max over orders (" + to_string(engine) + "): the order found for '" +
                                   w.ops[op].name + "' does not replay to its value");
        (s.finish[k] ? out.response : out.lower)[op] = r.response_of(op);
        out.order[op] = r.order;
    }
    out.complete = undecided == 0;
    if (!out.complete)
        out.note = engine == RtaOrdersEngine::smt && !budget.expired()
                       ? "the SMT engine gave up (size or memory limit)"
                       : std::to_string(undecided) + " of " + std::to_string(wo.problem.kernels()) +
                             " kernels undecided when the time ended";
    return out;
}

}  // namespace gpuwcrt
