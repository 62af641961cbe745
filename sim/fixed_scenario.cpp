#include "sim/scenario.hpp"

namespace gpuwcrt {

Scenario scenario_for(const Workload& w, const std::vector<std::string>& order_option,
                      const std::optional<std::string>& policy_option) {
    Scenario sc;
    const FixedScenario* f = w.scenario ? &*w.scenario : nullptr;
    const std::vector<std::string>& order = !order_option.empty() || !f ? order_option : f->order;
    sc.rank = launch_ranks(w, order);
    std::optional<std::string> policy = policy_option ? policy_option : (f ? f->policy : std::nullopt);
    if (policy) {
        auto p = parse_policy(*policy);
        if (!p) throw InputError(f && !policy_option ? f->where : SourceLocation{"--policy", 1, 1},
                                 "unknown policy '" + *policy + "' (most-room, round-robin, first-fit)");
        sc.policy = *p;
    }
    if (!f || f->sm.empty()) return sc;
    sc.fixed_sm.assign(w.ops.size(), {});
    const auto index = w.op_index();
    for (const auto& [name, sms] : f->sm) sc.fixed_sm[index.at(name)] = sms;
    sc.fixed_where = f->where;
    return sc;
}

}  // namespace gpuwcrt
