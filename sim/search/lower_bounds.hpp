#pragma once
// Lower bounds from concrete scenarios through the simulator (best_scenarios.hpp): random
// scenarios, then the scenario search (baselines, a beam over decisions, local search off the
// grid), which also starts from the best scenarios the others found; candidates of searches
// over an engine's states come in through offer(). The interior points matter: anomalies put
// the worst case there (docs/decisions/0010-interval-anomalies.md).
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "common/budget.hpp"
#include "model/integer_time.hpp"
#include "sim/search/best_scenarios.hpp"
#include "sim/search/random_scenarios.hpp"
#include "sim/search/scenario_search.hpp"

namespace gpuwcrt::search {

class LowerBoundSearch {
public:
    LowerBoundSearch(const Workload& w, const IntegerTimes& times, Policy policy, std::uint64_t seed);

    // A candidate from a search over states (BestScenarios::offer).
    void offer(int op, const Time& response, const WitnessScenario& x);

    // Simulates up to `count` random scenarios and then up to `count` scenarios of the search,
    // stopping when `budget` runs out.
    void run(long count, const Budget& budget);
    // The same run split in parts: each part continues it up to `target` simulations in all
    // (random scenarios first, then the search; the search's baselines and beam, once begun, run
    // to their end in one part), so that parts with rising targets, the last one unbounded,
    // find what run(count, ·) finds. Only parts of one count on a search that ran no other way.
    void run_part(long count, long long target, const Budget& budget);

    long long simulations() const { return random_.simulations() + search_.simulations(); }
    const std::vector<std::optional<Time>>& best() const { return best_.best(); }
    // The worst scenario found for `op`, replayed (BestScenarios::witness).
    WitnessScenario witness(int op) const { return best_.witness(op); }
    // The same, shared with the other operations whose worst it is (BestScenarios::replayed).
    std::shared_ptr<const WitnessScenario> replayed(int op) const { return best_.replayed(op); }

private:
    // The random scenarios' bests become starting points of the search.
    void hand_over(const Budget& budget);
    // The search's bests, replayed, kept where they improve.
    void keep_searched();

    Policy policy_;
    BestScenarios best_;
    RandomScenarios random_;
    ScenarioSearch search_;
    std::vector<char> to_offer_;            // per operation: its best is not yet a starting point of the search
    std::optional<long long> search_from_;  // run_part: the search's simulations when it began
};

}  // namespace gpuwcrt::search
