#pragma once
// The interference bound (bounds/interference/, docs/theory/interference.md) on the Engine interface: a
// link of auto's chain, the first one (solver/block/plan/run_plan.hpp). Upper bounds only, in
// milliseconds, before any search: under certify's deadlines they may settle operations at once.
#include "solver/engine.hpp"

namespace gpuwcrt {

class InterferenceEngine : public Engine {
public:
    std::string_view name() const override;
    Provenance provenance() const override { return Provenance::interference; }
    // An upper bound for each operation asked that the argument covers; none for the others (a
    // NULL stream, times off integer ticks), never a refusal. Stopped on time, every bound is
    // still proven (complete false).
    EngineRun run(const EngineRequest& request, const Budget& budget) const override;
    StatsShown stats_shown() const override { return {}; }
};

}  // namespace gpuwcrt
