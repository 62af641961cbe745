#pragma once
// Lower bounds: concrete scenarios through the simulator; each operation keeps its worst one as
// a witness. Two sources: random scenarios (launch orders among ties, placement, block times
// and issue instants at either end of their interval or anywhere on the tick grid between),
// and the scenario search (bounds/scenario_search/: baselines, a beam over decisions, local
// search off the grid), which also starts from the best scenarios the others found. The
// interior points matter: anomalies put the worst case there (docs/decisions.md).
#include <chrono>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "bounds/abstraction/problem.hpp"
#include "bounds/scenario_search/scenario_search.hpp"
#include "common/budget.hpp"
#include "bounds/answer.hpp"

namespace gpuwcrt::abstraction {

class LowerBoundSearch {
public:
    LowerBoundSearch(const Problem& p, Policy policy, std::uint64_t seed);

    // A candidate from elsewhere (the beam): kept if it beats the best so far and the simulator
    // reproduces its response; a path the simulator does not follow is ignored (the path may
    // be a partial witness: a launch order the beam did not fix is not the simulator's). Under
    // a placement policy other than "any" the policy places the blocks, not the candidate.
    void offer(int op, const Time& response, const WitnessScenario& x);

    // Simulates up to `count` random scenarios and then up to `count` scenarios of the search,
    // stopping when `budget` runs out.
    void run(long count, const Budget& budget);

    long long simulations() const { return simulations_ + search_.simulations(); }
    const std::vector<std::optional<Time>>& best() const { return best_; }
    // The worst scenario found for `op`, replayed through the simulator (replay_witness throws
    // ReplayMismatch if it does not reproduce the response: a bug, never a result).
    WitnessScenario witness(int op) const;

private:
    void run_random(long count, const Budget& budget);
    void improve(int op, const Time& response, WitnessScenario x);  // a new best from outside the search
    WitnessScenario draw();
    Time draw_time(int op, std::int64_t lo, std::int64_t hi);

    const Problem& p_;
    Policy policy_;
    std::mt19937_64 rng_;
    int mode_ = 0;  // cycles: all upper ends, all lower ends, mixed
    long long simulations_ = 0;
    std::vector<std::optional<Time>> best_;
    std::vector<WitnessScenario> witness_;
    scenario_search::ScenarioSearch search_;
    std::vector<char> to_offer_;  // per operation: its best is not yet a starting point of the search
};

}  // namespace gpuwcrt::abstraction
