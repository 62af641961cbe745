#pragma once
// `--engine bounds` on the Engine interface: the interval abstraction (bounds/abstraction/).
#include "bounds/abstraction/bounds.hpp"
#include "solver/engine.hpp"

namespace gpuwcrt {

class BoundsEngine : public Engine {
public:
    // `report_rounds`: a progress line per refinement round (alone; a chain says its own steps).
    explicit BoundsEngine(BoundsOptions options = {}, bool report_rounds = true)
        : options_(options), report_rounds_(report_rounds) {}
    std::string_view name() const override;
    Provenance provenance() const override { return Provenance::bounds; }
    EngineRun run(const EngineRequest& request, const Budget& budget) const override;
    StatsShown stats_shown() const override;

private:
    BoundsOptions options_;
    bool report_rounds_;
};

}  // namespace gpuwcrt
