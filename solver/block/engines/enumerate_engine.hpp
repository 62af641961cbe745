#pragma once
// `--engine enumerate` on the Engine interface: every scenario through the simulator
// (solver/block/enumerate/enumerate.hpp), the reference.
#include "solver/engine.hpp"

namespace gpuwcrt {

class EnumerateEngine : public Engine {
public:
    std::string_view name() const override;
    Provenance provenance() const override { return Provenance::enumerate; }
    EngineRun run(const EngineRequest& request, const Budget& budget) const override;
    StatsShown stats_shown() const override;
};

}  // namespace gpuwcrt
