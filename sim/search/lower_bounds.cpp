#include "sim/search/lower_bounds.hpp"

namespace gpuwcrt::search {

LowerBoundSearch::LowerBoundSearch(const Workload& w, const IntegerTimes& times, Policy policy, std::uint64_t seed)
    : policy_(policy),
      best_(w),
      random_(w, times, policy, seed),
      search_(w, Options{policy, seed}),
      to_offer_(w.ops.size(), 0) {}

void LowerBoundSearch::run(long count, const Budget& budget) {
    random_.run(count, budget, best_, to_offer_);
    const std::vector<std::optional<Time>>& best = best_.best();
    for (std::size_t op = 0; op < best.size() && !budget.expired(); ++op) {
        const auto& found = search_.best()[op];
        if (to_offer_[op] && (!found || *found < *best[op])) search_.offer(best_.kept(static_cast<int>(op)));
        to_offer_[op] = 0;
    }
    search_.run(budget, count);
    for (std::size_t op = 0; op < best.size(); ++op) {
        const int i = static_cast<int>(op);
        const auto& found = search_.best()[op];
        if (found && best_.improves(i, *found))
            best_.keep(i, *found, std::make_shared<const WitnessScenario>(search_.witness(i)));  // replayed
    }
}

void LowerBoundSearch::offer(int op, const Time& response, const WitnessScenario& x) {
    if (best_.offer(policy_, op, response, x)) to_offer_[op] = 1;
}

}  // namespace gpuwcrt::search
