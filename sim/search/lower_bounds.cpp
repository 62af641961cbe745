#include "sim/search/lower_bounds.hpp"

#include <algorithm>

namespace gpuwcrt::search {

LowerBoundSearch::LowerBoundSearch(const Workload& w, const IntegerTimes& times, Policy policy, std::uint64_t seed)
    : policy_(policy),
      best_(w),
      random_(w, times, policy, seed),
      search_(w, Options{policy, seed}),
      to_offer_(w.ops.size(), 0) {}

void LowerBoundSearch::run(long count, const Budget& budget) {
    random_.run(count, budget, best_, to_offer_);
    hand_over(budget);
    search_.run(budget, count);
    keep_searched();
}

void LowerBoundSearch::run_part(long count, long long target, const Budget& budget) {
    const long long drawn = random_.simulations();
    if (drawn < count)
        random_.run_range(static_cast<long>(drawn), static_cast<long>(std::min<long long>(count, target)), budget,
                          best_, to_offer_);
    if (random_.simulations() < count || budget.expired()) return;
    if (!search_from_) {
        hand_over(budget);
        if (budget.expired()) return;
        search_from_ = search_.simulations();
    }
    const long long more = std::max(0LL, target - simulations()), end = *search_from_ + count;
    const long long until = more >= end - search_.simulations() ? end : search_.simulations() + more;
    search_.run_to(budget, *search_from_ + std::max<long long>(1, count / 2), until);
    keep_searched();
}

void LowerBoundSearch::hand_over(const Budget& budget) {
    const std::vector<std::optional<Time>>& best = best_.best();
    for (std::size_t op = 0; op < best.size() && !budget.expired(); ++op) {
        const auto& found = search_.best()[op];
        if (to_offer_[op] && (!found || *found < *best[op])) search_.offer(best_.kept(static_cast<int>(op)));
        to_offer_[op] = 0;
    }
}

void LowerBoundSearch::keep_searched() {
    const std::vector<std::optional<Time>>& best = best_.best();
    for (std::size_t op = 0; op < best.size(); ++op) {
        const int i = static_cast<int>(op);
        const auto& found = search_.best()[op];
        if (found && best_.improves(i, *found)) best_.keep(i, *found, search_.replayed(i));
    }
}

void LowerBoundSearch::offer(int op, const Time& response, const WitnessScenario& x) {
    if (best_.offer(policy_, op, response, x)) to_offer_[op] = 1;
}

}  // namespace gpuwcrt::search
