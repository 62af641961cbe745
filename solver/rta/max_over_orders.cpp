#include "solver/rta/max_over_orders.hpp"

#include <chrono>
#include <stdexcept>

#include "bounds/rta/rta_workload.hpp"
#include "solver/rta/problem.hpp"
#include "solver/rta/search.hpp"

namespace gpuwcrt {

RtaMaxOverOrders rta_max_over_orders(const Workload& w, const Budget& budget) {
    const rta_orders::WorkloadOrders wo = rta_orders::workload_orders(w);
    const rta_orders::SearchResult s = rta_orders::search_max_finish(wo.problem, budget);
    RtaMaxOverOrders out;
    out.answers.resize(w.ops.size());
    out.work = s.nodes;
    const std::vector<Time> releases = rta_releases(w);
    int undecided = 0;
    // The replays and root bounds below go on past the deadline for this long at most: a small
    // workload's take far less, so its decided kernels keep their replayed values.
    const Budget::Clock::time_point grace_end = Budget::Clock::now() + std::chrono::milliseconds(200);
    for (int k = 0; k < wo.problem.kernels(); ++k) {
        const int op = wo.op[k];
        BoundedAnswer<Time, LaunchOrder>& a = out.answers[op];
        // Past the deadline and its grace a kernel keeps only what costs nothing more, as an upper bound: its
        // maximum or the bound its search proved; no root bound and no replay (each costs a pass
        // over the kernels), so that the column ends on time. An unreplayed value is no lower bound.
        if (budget.expired() && Budget::Clock::now() >= grace_end) {
            if (const auto proven = s.finish[k] ? s.finish[k] : s.bound[k]) {
                a.upper = Time(*proven) / wo.scale - releases[op];
                a.upper_by = Provenance::rta_orders;
            }
            ++undecided;
            continue;
        }
        const std::optional<std::int64_t> value = s.finish[k] ? s.finish[k] : s.found[k];
        if (!s.finish[k]) {  // a kernel no search reached still gets its root bound
            a.upper = Time(s.bound[k] ? *s.bound[k] : rta_orders::root_bound(wo.problem, k)) / wo.scale - releases[op];
            a.upper_by = Provenance::rta_orders;
        }
        undecided += !s.finish[k];
        if (!value) continue;
        std::vector<int> order;
        for (int j : s.order[k]) order.push_back(wo.op[j]);
        // Replay: the reference RTA on this order must give the engine's value.
        const RtaOutcome r = rta(w, order);
        if (r.finish_of(op) != Time(*value) / wo.scale)
            throw std::logic_error("RTA max over orders (search): the order found for '" + w.ops[op].name +
                                   "' does not replay to its value");
        const std::optional<Time> response = r.response_of(op);
        if (s.finish[k] && response) {
            a.set_exact(*response, Provenance::rta_orders);
        } else if (response) {
            a.lower = response;
            a.lower_by = Provenance::rta_orders;
        }
        a.witness = r.order;
    }
    out.complete = undecided == 0;
    if (!out.complete)
        out.note = std::to_string(undecided) + " of " + std::to_string(wo.problem.kernels()) +
                   " kernels undecided when the time ended";
    return out;
}

}  // namespace gpuwcrt
