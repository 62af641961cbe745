#pragma once
// `--engine exact` on the Engine interface: the explicit-state search (solver/exact/), every
// operation at once.
#include "bounds/engine_stats.hpp"
#include "solver/engine.hpp"
#include "solver/exact/explorer.hpp"

namespace gpuwcrt {

class ExactEngine : public Engine {
public:
    // `options`: the search's shape and work limit (max_states: a step of auto's plan).
    explicit ExactEngine(ExactSearchOptions options = {}) : options_(options) {}
    std::string_view name() const override;
    Provenance provenance() const override { return Provenance::exact; }
    bool ranges_over_wait() const override { return true; }
    // Intervals and windows off the tick grid and the like: the search's own message, pointing
    // to --engine bounds.
    void check_scope(const Workload& w) const override;
    EngineRun run(const EngineRequest& request, const Budget& budget) const override;
    StatsShown stats_shown() const override { return {}; }  // its own counters: EngineStats::exact

private:
    ExactSearchOptions options_;
};

}  // namespace gpuwcrt
