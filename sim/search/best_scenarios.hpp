#pragma once
// The framework of the replayed lower-bound searches. Strategies propose scenarios: random
// scenarios (random_scenarios.hpp), the scenario search over genomes (scenario_search.hpp), the
// local search over launch orders for one operation (incumbent.hpp), and, above this layer,
// searches over an engine's own states (the abstraction's beam, the exact engine's seeding
// beam). This table keeps, per operation, the largest response a proposed scenario reached and
// that scenario, and hands a witness out only after the simulator reproduced it: a response is
// a lower bound on the WCRT only through witness().
#include <memory>
#include <optional>
#include <vector>

#include "sim/witness.hpp"

namespace gpuwcrt::search {

class BestScenarios {
public:
    explicit BestScenarios(const Workload& w);

    bool improves(int op, const Time& response) const { return !best_[op] || *best_[op] < response; }

    // Keeps `x`, a scenario the caller simulated, for `op` if its response improves. Operations
    // that one simulation improves may share one witness.
    void keep(int op, const Time& response, std::shared_ptr<const WitnessScenario> x);

    // A candidate of a search that does not run the simulator (a beam over states; the path may
    // be a partial witness: a launch order the beam did not fix is not the simulator's). Kept if
    // it beats the best so far and the simulator reproduces its response; a path the simulator
    // does not follow is ignored. Under a placement policy other than "any" the policy places
    // the blocks, not the candidate. Returns whether it was kept.
    bool offer(Policy policy, int op, const Time& response, const WitnessScenario& x);

    const std::vector<std::optional<Time>>& best() const { return best_; }
    // The scenario kept for `op`, not replayed: a starting point for a strategy. Requires best()[op].
    const WitnessScenario& kept(int op) const { return *witness_[op]; }
    // The scenario kept for `op`, replayed (replay_witness throws ReplayMismatch if it does not
    // reproduce the response: a bug, never a result). Requires best()[op].
    WitnessScenario witness(int op) const;

private:
    const Workload& w_;
    std::vector<std::optional<Time>> best_;
    std::vector<std::shared_ptr<const WitnessScenario>> witness_;
};

}  // namespace gpuwcrt::search
