#include "sim/search/random_scenarios.hpp"

#include <algorithm>
#include <numeric>

namespace gpuwcrt::search {

RandomScenarios::RandomScenarios(const Workload& w, const IntegerTimes& times, Policy policy, std::uint64_t seed)
    : w_(w), times_(times), policy_(policy), rng_(seed) {}

Time RandomScenarios::draw_time(std::int64_t lo, std::int64_t hi) {
    std::int64_t t = hi;
    if (mode_ == 1) t = lo;
    if (mode_ == 2) {
        const auto r = rng_() % 3;
        t = r == 0   ? lo
            : r == 1 ? hi
                     : lo + static_cast<std::int64_t>(rng_() % static_cast<std::uint64_t>(hi - lo + 1));
    }
    return times_.to_time(t);
}

WitnessScenario RandomScenarios::draw() {
    const IntegerTimes& t = times_;
    WitnessScenario x;
    x.block_time.assign(w_.ops.size(), {});
    x.issue.assign(w_.ops.size(), std::nullopt);
    for (std::size_t op = 0; op < w_.ops.size(); ++op) {
        if (t.lo[op] < t.hi[op]) {
            const std::int64_t n = w_.ops[op].is_kernel() ? w_.ops[op].blocks : 1;
            for (std::int64_t j = 0; j < n; ++j) x.block_time[op].push_back(draw_time(t.lo[op], t.hi[op]));
        }
        if (w_.ops[op].issue.kind == IssueSpec::Kind::at && t.issue_lo[op] < t.issue_hi[op])
            x.issue[op] = draw_time(t.issue_lo[op], t.issue_hi[op]);
    }
    return x;
}

void RandomScenarios::run_range(long first, long last, const Budget& budget, BestScenarios& best,
                                std::vector<char>& improved) {
    std::vector<long> rank(w_.ops.size());
    for (long i = first; i < last; ++i) {
        if (budget.expired()) return;
        WitnessScenario x = draw();
        mode_ = (mode_ + 1) % 3;
        std::iota(rank.begin(), rank.end(), 0L);
        if (simulations_ > 0) std::shuffle(rank.begin(), rank.end(), rng_);  // ties among same-instant issues
        // Every other scenario aims at one operation: launched after everything issued with it
        // (a kernel's response is worst when every other one is ahead), or a variation of its
        // worst scenario so far (two operations of its launch order swapped, placement drawn anew).
        const int target = static_cast<int>(rng_() % w_.ops.size());
        if (i % 4 != 0) {
            if (best.best()[target] && i % 4 != 1) {
                const std::vector<int>& order = best.kept(target).launch_order;
                for (std::size_t j = 0; j < order.size(); ++j) rank[order[j]] = static_cast<long>(j);
                const std::size_t a = rng_() % order.size(), b = rng_() % order.size();
                std::swap(rank[order[a]], rank[order[b]]);
                if (mode_ == 0) x = best.kept(target), x.launch_order.clear(), x.sm.clear();  // its times too
            } else {
                rank[target] = static_cast<long>(w_.ops.size());
            }
        }
        Scenario sc = witness_scenario(w_, x);
        sc.rank = rank;
        sc.fixed_sm.clear();
        sc.policy = policy_;
        if (policy_ == Policy::chooser)
            sc.choose = [this](const PlacementRequest& r) { return r.fitting[rng_() % r.fitting.size()]; };
        const Schedule s = simulate(w_, sc);
        ++simulations_;
        std::shared_ptr<const WitnessScenario> kept;  // the operations this scenario improves share it
        for (std::size_t op = 0; op < w_.ops.size(); ++op) {
            const int i_op = static_cast<int>(op);
            const Time r = s.response(i_op);
            if (!best.improves(i_op, r)) continue;
            if (!kept) {
                auto k = std::make_shared<WitnessScenario>(witness_of(w_, s));
                k->block_time = x.block_time;
                k->issue = x.issue;
                kept = std::move(k);
            }
            best.keep(i_op, r, kept);
            improved[op] = 1;
        }
    }
}

}  // namespace gpuwcrt::search
