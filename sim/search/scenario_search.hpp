#pragma once
// A strategy of the lower-bound search (best_scenarios.hpp) over concrete scenarios without a
// grid (docs/theory/abstraction.md, "Lower bounds"): the search chooses every block's time (either end
// or any interior point, including points ever closer to an end, where a supremum that no
// scenario attains is approached), issue instants inside their windows, the launch order among
// simultaneous issues and, under the `any` placement, each kernel's placement. Three phases
// share one simulation count and one budget: plain baselines (every range at one end, each
// operation launched after its ties); a beam over the operations in issue order that fixes one
// operation's genes per level, each entry a concrete scenario scored by a simulation; then
// local search from each operation's best scenario. Every simulation improves every
// operation's best; a best is reported only after replay_witness reproduces it. Deterministic
// for a given seed and simulation count; a budget that ends first leaves fewer, still
// replayed, bounds.
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <vector>

#include "sim/search/best_scenarios.hpp"
#include "sim/search/genome.hpp"
#include "common/budget.hpp"

namespace gpuwcrt::search {

struct Options {
    Policy policy = Policy::chooser;  // chooser: any SM where the block fits
    std::uint64_t seed = 12;
    int beam_width = 4;  // entries kept per level of the beam
    int branching = 6;   // children per entry and level (always including "unchanged")
};

class ScenarioSearch {
public:
    ScenarioSearch(const Workload& w, const Options& o);

    // A scenario from elsewhere: simulated (it counts as one simulation) and kept as a
    // starting point of the local search if it improves some operation.
    void offer(const WitnessScenario& x);

    // Runs until `max_simulations` more scenarios are simulated or `budget` runs out. The first
    // call runs the baselines and the beam first; every call then searches locally.
    void run(const Budget& budget, long long max_simulations);
    // A part of one run: the baselines and the beam (when not yet run) up to `first_end`
    // simulations in all, however small `until` is (the beam keeps its levels only while it
    // runs), then the local search up to `until`. Parts with the same `first_end` and rising
    // `until` search what one run up to the last `until` searches.
    void run_to(const Budget& budget, long long first_end, long long until);

    long long simulations() const { return simulations_; }
    const std::vector<std::optional<Time>>& best() const { return best_.best(); }
    // The best scenario of `op`, replayed (BestScenarios::witness). Requires best()[op].
    WitnessScenario witness(int op) const { return best_.witness(op); }
    // The same, shared with the other operations whose best it is (BestScenarios::replayed).
    std::shared_ptr<const WitnessScenario> replayed(int op) const { return best_.replayed(op); }

private:
    // Simulates `g` and improves every operation's best with it; returns the responses.
    std::vector<Time> evaluate(const Genome& g);
    void baselines(const Budget& budget, long long until);
    void beam(const Budget& budget, long long until);
    void local(const Budget& budget, long long until);
    bool stop(const Budget& budget, long long until) const { return simulations_ >= until || budget.expired(); }

    const Workload& w_;
    Workload points_;  // w_ with the simulated genome's block times as points (simulate_genome)
    Options o_;
    GeneSpace genes_;
    std::mt19937_64 rng_;
    bool started_ = false;
    long long simulations_ = 0;
    BestScenarios best_;
    // Per operation, with best_: the genome of its best scenario. One simulation often improves
    // many operations: they share one copy (and one witness).
    std::vector<std::shared_ptr<const Genome>> best_genome_;
    std::vector<std::shared_ptr<const Genome>> current_;  // per operation: where its local search stands
    std::vector<Time> current_response_;
    std::vector<int> stale_;  // per operation: local steps since its current scenario improved
    int next_target_ = 0;
    long long restarts_ = 0;
};

}  // namespace gpuwcrt::search
