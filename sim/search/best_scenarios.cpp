#include "sim/search/best_scenarios.hpp"

#include <deque>
#include <mutex>
#include <optional>
#include <utility>

namespace gpuwcrt::search {

// The scenarios checked last, with their acceptance and their replay: a search's one
// simulation often improves hundreds of operations (every frame of an unrolled workload), whose
// bests then share one scenario; checking and replaying it once per operation made those most
// of a search's time. Held by the scenario's pointer, so that a scenario freed and another
// allocated at its address is never taken for it. Several threads may read one table (const):
// the lock.
struct BestScenarios::Replays {
    struct Checked {
        std::shared_ptr<const WitnessScenario> x;
        std::optional<bool> accepted;
        std::shared_ptr<const Schedule> schedule;
    };
    static constexpr std::size_t kept = 4;
    std::mutex lock;
    std::deque<Checked> last;

    // Under the lock: x's entry, made (the oldest forgotten) when it has none.
    Checked& of(const std::shared_ptr<const WitnessScenario>& x) {
        for (Checked& c : last)
            if (c.x == x) return c;
        last.push_front({x, std::nullopt, nullptr});
        if (last.size() > kept) last.pop_back();
        return last.front();
    }
};

BestScenarios::BestScenarios(const Workload& w, Acceptance accept)
    : w_(w),
      accept_(std::move(accept)),
      best_(w.ops.size()),
      witness_(w.ops.size()),
      replays_(std::make_shared<Replays>()) {}

std::shared_ptr<const Schedule> BestScenarios::replay(const std::shared_ptr<const WitnessScenario>& x) const {
    {
        const std::lock_guard<std::mutex> hold(replays_->lock);
        if (std::shared_ptr<const Schedule> known = replays_->of(x).schedule) return known;
    }
    auto schedule = std::make_shared<const Schedule>(simulate_witness(w_, *x));
    const std::lock_guard<std::mutex> hold(replays_->lock);
    replays_->of(x).schedule = schedule;
    return schedule;
}

bool BestScenarios::accepted(const std::shared_ptr<const WitnessScenario>& x) const {
    if (!accept_.scenario) return true;
    {
        const std::lock_guard<std::mutex> hold(replays_->lock);
        if (const std::optional<bool> known = replays_->of(x).accepted) return *known;
    }
    const bool ok = accept_.scenario(*x);
    const std::lock_guard<std::mutex> hold(replays_->lock);
    replays_->of(x).accepted = ok;
    return ok;
}

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
    if (!improves(op, response)) return false;
    return offer_witness(op, response, std::make_shared<const WitnessScenario>(x));
}

bool BestScenarios::offer_witness(int op, const Time& response, std::shared_ptr<const WitnessScenario> x) {
    if (!improves(op, response) || !accepted(x)) return false;
    const std::shared_ptr<const Schedule> replayed = replay(x);
    require_replayed(w_, *x, *replayed, op, response);
    if (accept_.replayed && !accept_.replayed(op, *replayed)) return false;
    keep(op, response, std::move(x));
    return true;
}

std::shared_ptr<const WitnessScenario> BestScenarios::replayed(int op) const {
    require_replayed(w_, *witness_[op], *replay(witness_[op]), op, *best_[op]);
    return witness_[op];
}

}  // namespace gpuwcrt::search
