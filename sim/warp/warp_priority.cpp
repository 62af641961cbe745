#include "sim/warp/warp_priority.hpp"

#include <algorithm>
#include <numeric>

namespace gpuwcrt {

std::string WarpPriorityRule::name() const {
    return std::string(ahead ? "ahead" : "behind") + "-first" +
           (starved > 0 ? ", last " + std::to_string(starved) + " warp" + (starved > 1 ? "s" : "") + " starved" : "");
}

std::vector<WarpPriorityRule> priority_portfolio(int warps) {
    std::vector<WarpPriorityRule> out;
    for (int k = 0; k <= std::min(3, warps - 1); ++k)
        for (bool ahead : {false, true}) out.push_back({k, ahead});
    return out;
}

WarpPrioritySchedule play_priority_rule(const WarpProblem& p, const WarpPriorityRule& rule, const Budget* budget) {
    const auto instr = p.instructions();
    const int W = p.warps, P = static_cast<int>(instr.size());
    const auto& m = p.machine;
    std::vector<int> pc(static_cast<std::size_t>(W), 0);
    std::vector<long long> ready_at(static_cast<std::size_t>(W), 1);
    const int first_starved = W - std::clamp(rule.starved, 0, W);
    // Smaller sorts first: fairness level, then starved warps last, then the rule's order.
    const auto key = [&](int w) {
        const auto& i = instr[static_cast<std::size_t>(pc[static_cast<std::size_t>(w)])];
        const int tier = w >= first_starved ? 1 + w - first_starved : 0;
        const int order = rule.ahead ? P - pc[static_cast<std::size_t>(w)] : pc[static_cast<std::size_t>(w)];
        return std::tuple(i.level, tier, order, w);
    };
    WarpPrioritySchedule out{rule, 0, {}};
    std::vector<int> ready, used(m.units.size());
    int unfinished = W;
    for (long long cycle = 1; unfinished > 0; ++cycle) {
        ready.clear();
        for (int w = 0; w < W; ++w)
            if (pc[static_cast<std::size_t>(w)] < P && ready_at[static_cast<std::size_t>(w)] <= cycle)
                ready.push_back(w);
        std::sort(ready.begin(), ready.end(), [&](int a, int b) { return key(a) < key(b); });
        std::fill(used.begin(), used.end(), 0);
        WarpIssue x(static_cast<std::size_t>(P), 0);
        int total = 0;
        for (int w : ready) {
            if (m.issue_limit && total >= *m.issue_limit) break;
            const auto wi = static_cast<std::size_t>(w);
            const auto& i = instr[static_cast<std::size_t>(pc[wi])];
            auto& u = used[static_cast<std::size_t>(i.unit)];
            if (u >= m.units[static_cast<std::size_t>(i.unit)].capacity) continue;
            ++u;
            ++total;
            ++x[static_cast<std::size_t>(pc[wi])];
            ready_at[wi] = cycle + i.latency;
            if (++pc[wi] == P) --unfinished;
        }
        out.issues.push_back(std::move(x));
        if (total > 0) out.makespan = static_cast<int>(cycle);
        // Every cycle: at thousands of warps one cycle sorts them all, far more than a clock read.
        if (budget) budget->check(out.issues.size() * (static_cast<std::size_t>(P) * 2 + 40));
    }
    return out;
}

}  // namespace gpuwcrt
