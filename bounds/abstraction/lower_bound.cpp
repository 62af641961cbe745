#include "bounds/abstraction/lower_bound.hpp"

#include <algorithm>
#include <numeric>

namespace gpuwcrt::abstraction {

LowerBoundSearch::LowerBoundSearch(const Problem& p, Policy policy, std::uint64_t seed)
    : p_(p),
      policy_(policy),
      rng_(seed),
      best_(p.w.ops.size()),
      witness_(p.w.ops.size()),
      search_(p.w, scenario_search::Options{policy, seed}),
      to_offer_(p.w.ops.size(), 0) {}

void LowerBoundSearch::improve(int op, const Time& response, WitnessScenario x) {
    best_[op] = response;
    witness_[op] = std::move(x);
    to_offer_[op] = 1;
}

void LowerBoundSearch::run(long count, const Budget& budget) {
    run_random(count, budget);
    for (std::size_t op = 0; op < best_.size() && !budget.expired(); ++op) {
        const auto& found = search_.best()[op];
        if (to_offer_[op] && (!found || *found < *best_[op])) search_.offer(witness_[op]);
        to_offer_[op] = 0;
    }
    search_.run(budget, count);
    for (std::size_t op = 0; op < best_.size(); ++op) {
        const auto& found = search_.best()[op];
        if (found && (!best_[op] || *best_[op] < *found)) {
            best_[op] = found;
            witness_[op] = search_.witness(static_cast<int>(op));  // replayed
        }
    }
}

Time LowerBoundSearch::draw_time(int, std::int64_t lo, std::int64_t hi) {
    std::int64_t t = hi;
    if (mode_ == 1) t = lo;
    if (mode_ == 2) {
        const auto r = rng_() % 3;
        t = r == 0   ? lo
            : r == 1 ? hi
                     : lo + static_cast<std::int64_t>(rng_() % static_cast<std::uint64_t>(hi - lo + 1));
    }
    return p_.times.to_time(t);
}

WitnessScenario LowerBoundSearch::draw() {
    const Workload& w = p_.w;
    const IntegerTimes& t = p_.times;
    WitnessScenario x;
    x.block_time.assign(w.ops.size(), {});
    x.issue.assign(w.ops.size(), std::nullopt);
    for (std::size_t op = 0; op < w.ops.size(); ++op) {
        const int i = static_cast<int>(op);
        if (t.lo[op] < t.hi[op]) {
            const std::int64_t n = w.ops[op].is_kernel() ? w.ops[op].blocks : 1;
            for (std::int64_t j = 0; j < n; ++j) x.block_time[op].push_back(draw_time(i, t.lo[op], t.hi[op]));
        }
        if (w.ops[op].issue.kind == IssueSpec::Kind::at && t.issue_lo[op] < t.issue_hi[op])
            x.issue[op] = draw_time(i, t.issue_lo[op], t.issue_hi[op]);
    }
    return x;
}

void LowerBoundSearch::run_random(long count, const Budget& budget) {
    const Workload& w = p_.w;
    std::vector<long> rank(w.ops.size());
    for (long i = 0; i < count; ++i) {
        if (budget.expired()) return;
        WitnessScenario x = draw();
        mode_ = (mode_ + 1) % 3;
        std::iota(rank.begin(), rank.end(), 0L);
        if (simulations_ > 0) std::shuffle(rank.begin(), rank.end(), rng_);  // ties among same-instant issues
        // Every other scenario aims at one operation: launched after everything issued with it
        // (a kernel's response is worst when every other one is ahead), or a variation of its
        // worst scenario so far (two operations of its launch order swapped, placement drawn anew).
        const int target = static_cast<int>(rng_() % w.ops.size());
        if (i % 4 != 0) {
            if (best_[target] && i % 4 != 1) {
                const std::vector<int>& order = witness_[target].launch_order;
                for (std::size_t j = 0; j < order.size(); ++j) rank[order[j]] = static_cast<long>(j);
                const std::size_t a = rng_() % order.size(), b = rng_() % order.size();
                std::swap(rank[order[a]], rank[order[b]]);
                if (mode_ == 0) x = witness_[target], x.launch_order.clear(), x.sm.clear();  // its times too
            } else {
                rank[target] = static_cast<long>(w.ops.size());
            }
        }
        Scenario sc = witness_scenario(w, x);
        sc.rank = rank;
        sc.fixed_sm.clear();
        sc.policy = policy_;
        if (policy_ == Policy::chooser)
            sc.choose = [this](const PlacementRequest& r) { return r.fitting[rng_() % r.fitting.size()]; };
        const Schedule s = simulate(w, sc);
        ++simulations_;
        for (std::size_t op = 0; op < w.ops.size(); ++op) {
            const Time r = s.response(static_cast<int>(op));
            if (best_[op] && r <= *best_[op]) continue;
            WitnessScenario kept = witness_of(w, s);
            kept.block_time = x.block_time;
            kept.issue = x.issue;
            improve(static_cast<int>(op), r, std::move(kept));
        }
    }
}

void LowerBoundSearch::offer(int op, const Time& response, const WitnessScenario& x) {
    if (best_[op] && response <= *best_[op]) return;
    Schedule s;
    if (policy_ == Policy::chooser) {
        try {
            s = replay_witness(p_.w, x, op, response);
        } catch (const ReplayMismatch&) {
            return;
        }
    } else {
        // The beam places blocks on any SM where they fit; under a placement policy only the
        // policy's own choices are scenarios of the workload, so the candidate's launch order,
        // block times and issue instants are replayed with the policy placing every block, and
        // what that gives is the candidate.
        Scenario sc = witness_scenario(p_.w, x);
        sc.fixed_sm.clear();
        sc.policy = policy_;
        s = simulate(p_.w, sc);
        if (best_[op] && s.response(op) <= *best_[op]) return;
    }
    WitnessScenario full = witness_of(p_.w, s);  // every operation's order and SMs, as replayed
    full.block_time = x.block_time;
    full.issue = x.issue;
    improve(op, s.response(op), std::move(full));
}

WitnessScenario LowerBoundSearch::witness(int op) const {
    replay_witness(p_.w, witness_[op], op, *best_[op]);
    return witness_[op];
}

}  // namespace gpuwcrt::abstraction
