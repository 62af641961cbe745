#pragma once
// A strategy of the lower-bound search (best_scenarios.hpp): random scenarios on the tick grid.
// Launch orders among ties, placement, block times and issue instants at either end of their
// interval or anywhere on the grid between; every other scenario aims at one operation, launched
// after everything issued with it or varied from its best scenario so far.
#include <cstdint>
#include <random>
#include <vector>

#include "common/budget.hpp"
#include "model/integer_time.hpp"
#include "sim/search/best_scenarios.hpp"

namespace gpuwcrt::search {

class RandomScenarios {
public:
    RandomScenarios(const Workload& w, const IntegerTimes& times, Policy policy, std::uint64_t seed);

    // Simulates up to `count` scenarios, stopping when `budget` runs out; every operation a
    // scenario improves is kept in `best` and marked in `improved`.
    void run(long count, const Budget& budget, BestScenarios& best, std::vector<char>& improved) {
        run_range(0, count, budget, best, improved);
    }
    // Scenarios `first` … `last` - 1 of one run: ranges that follow each other draw what one
    // run over all of them draws.
    void run_range(long first, long last, const Budget& budget, BestScenarios& best, std::vector<char>& improved);

    long long simulations() const { return simulations_; }

private:
    WitnessScenario draw();
    Time draw_time(std::int64_t lo, std::int64_t hi);

    const Workload& w_;
    IntegerTimes times_;  // a copy: callers often pass a temporary view
    Policy policy_;
    std::mt19937_64 rng_;
    int mode_ = 0;  // cycles: all upper ends, all lower ends, mixed
    long long simulations_ = 0;
};

}  // namespace gpuwcrt::search
