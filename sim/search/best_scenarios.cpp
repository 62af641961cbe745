#include "sim/search/best_scenarios.hpp"

namespace gpuwcrt::search {

BestScenarios::BestScenarios(const Workload& w, Acceptance accept)
    : w_(w), accept_(std::move(accept)), best_(w.ops.size()), witness_(w.ops.size()) {}

void BestScenarios::keep(int op, const Time& response, std::shared_ptr<const WitnessScenario> x) {
    if (!improves(op, response)) return;
    best_[op] = response;
    witness_[op] = std::move(x);
}

bool BestScenarios::offer(Policy policy, int op, const Time& response, const WitnessScenario& x) {
    if (!improves(op, response)) return false;
    Schedule s;
    if (policy == Policy::chooser) {
        try {
            s = replay_witness(w_, x, op, response);
        } catch (const ReplayMismatch&) {
            return false;
        }
    } else {
        // A beam places blocks on any SM where they fit; under a placement policy only the
        // policy's own choices are scenarios of the workload, so the candidate's launch order,
        // block times and issue instants are replayed with the policy placing every block, and
        // what that gives is the candidate.
        Scenario sc = witness_scenario(w_, x);
        sc.fixed_sm.clear();
        sc.policy = policy;
        s = simulate(w_, sc);
        if (!improves(op, s.response(op))) return false;
    }
    auto full = std::make_shared<WitnessScenario>(witness_of(w_, s));  // every operation's order and SMs, as replayed
    full->block_time = x.block_time;
    full->issue = x.issue;
    keep(op, s.response(op), std::move(full));
    return true;
}

bool BestScenarios::offer_witness(int op, const Time& response, const WitnessScenario& x) {
    if (!improves(op, response) || (accept_.scenario && !accept_.scenario(x))) return false;
    const Schedule replayed = replay_witness(w_, x, op, response);
    if (accept_.replayed && !accept_.replayed(op, replayed)) return false;
    keep(op, response, std::make_shared<const WitnessScenario>(x));
    return true;
}

WitnessScenario BestScenarios::witness(int op) const {
    replay_witness(w_, *witness_[op], op, *best_[op]);
    return *witness_[op];
}

}  // namespace gpuwcrt::search
