#pragma once
// The framework of the replayed lower-bound searches. Strategies propose scenarios: random
// scenarios (random_scenarios.hpp), the scenario search over genomes (scenario_search.hpp), the
// local search over launch orders for one operation (incumbent.hpp), and, above this layer,
// searches over an engine's own states (the abstraction's beam, the exact engine's seeding
// beam). This table keeps, per operation, the largest response a proposed scenario reached and
// that scenario, and hands a witness out only after the simulator reproduced it: a response is
// a lower bound on the WCRT only through witness().
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "sim/witness.hpp"

namespace gpuwcrt::search {

// Which replayed scenarios count as lower bounds: by default every scenario of the workload.
// Over frames a scenario of the unrolled workload counts only where it is one of the system
// (solver/frames/frame_lower_bounds.hpp): each frame released at one instant, the operation
// complete before a frame left out is released.
struct Acceptance {
    std::function<bool(const WitnessScenario&)> scenario;   // before the replay; empty: every one
    std::function<bool(int op, const Schedule&)> replayed;  // after it; empty: every one
};

class BestScenarios {
public:
    explicit BestScenarios(const Workload& w, Acceptance accept = {});

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

    // A witness found elsewhere (a search on a workload with the same operations, an engine's
    // answer): kept if it improves, the acceptance takes it and the simulator reproduces
    // `response` here (a scenario that does not is a bug: ReplayMismatch). Returns whether kept.
    bool offer_witness(int op, const Time& response, const WitnessScenario& x);
    // The same for a shared scenario: offers of one scenario for several operations share one
    // replay (the simulator is deterministic: one run of a scenario is its replay for each).
    bool offer_witness(int op, const Time& response, std::shared_ptr<const WitnessScenario> x);

    const std::vector<std::optional<Time>>& best() const { return best_; }
    // The scenario kept for `op`, not replayed: a starting point for a strategy. Requires best()[op].
    const WitnessScenario& kept(int op) const { return *witness_[op]; }
    // The same, shared with the other operations it is the best of.
    const std::shared_ptr<const WitnessScenario>& kept_shared(int op) const { return witness_[op]; }
    // The scenario kept for `op`, replayed (replay_witness throws ReplayMismatch if it does not
    // reproduce the response: a bug, never a result). Requires best()[op].
    WitnessScenario witness(int op) const { return *replayed(op); }
    // The same, shared: the operations whose bests are one scenario share its replay and the
    // scenario itself (a table that keeps it for many operations copies it once).
    std::shared_ptr<const WitnessScenario> replayed(int op) const;

private:
    struct Replays;
    // The simulator's schedule of `x`, and whether the acceptance takes it before a replay: each
    // computed once while `x` is among the last few scenarios checked.
    std::shared_ptr<const Schedule> replay(const std::shared_ptr<const WitnessScenario>& x) const;
    bool accepted(const std::shared_ptr<const WitnessScenario>& x) const;

    const Workload& w_;
    Acceptance accept_;
    std::vector<std::optional<Time>> best_;
    std::vector<std::shared_ptr<const WitnessScenario>> witness_;
    std::shared_ptr<Replays> replays_;  // shared by copies of the table, which replay on the same workload
};

}  // namespace gpuwcrt::search
