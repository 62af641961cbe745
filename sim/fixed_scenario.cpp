#include <memory>

#include "model/name_policy.hpp"
#include "sim/scenario.hpp"

namespace gpuwcrt {

Scenario scenario_for(const Workload& w, const std::vector<std::string>& order_option,
                      const std::optional<std::string>& policy_option) {
    Scenario sc;
    const FixedScenario* f = w.scenario ? &*w.scenario : nullptr;
    const bool from_option = !order_option.empty() || !f;
    sc.rank = from_option ? launch_ranks(w, order_option) : launch_ranks(w, f->order, OrderSource::scenario(*f));
    std::optional<std::string> policy = policy_option ? policy_option : (f ? f->policy : std::nullopt);
    if (policy) {
        auto p = parse_policy(*policy);
        if (!p) {
            const std::string message =
                "unknown policy " + quoted_name(*policy) + " (most-room, round-robin, first-fit)";
            if (policy_option) throw option_error("--policy", message);
            throw InputError(f->where, "[scenario] policy: " + message);
        }
        sc.policy = *p;
    }
    if (f && !f->issue.empty()) {
        sc.issue_at.assign(w.ops.size(), std::nullopt);
        for (const auto& [name, t] : f->issue) sc.issue_at[*w.find_op(name)] = t;
    }
    if (f && !f->block_time.empty()) {
        // Held by the function itself: the scenario may outlive the workload's table.
        auto times = std::make_shared<std::vector<std::vector<Time>>>(w.ops.size());
        for (const auto& [name, t] : f->block_time) (*times)[*w.find_op(name)] = t;
        sc.block_time = [times, &w](int op, std::int64_t block) -> Time {
            const auto& t = (*times)[op];
            return block < static_cast<std::int64_t>(t.size()) ? t[block] : w.ops[op].time.hi;
        };
    }
    if (!f || f->sm.empty()) return sc;
    sc.fixed_sm.assign(w.ops.size(), {});
    const auto index = w.op_index();
    for (const auto& [name, sms] : f->sm) sc.fixed_sm[index.at(name)] = sms;
    sc.fixed_where = f->where;
    return sc;
}

}  // namespace gpuwcrt
