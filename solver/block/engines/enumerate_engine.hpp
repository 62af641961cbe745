#pragma once
// `--engine enumerate` on the Engine interface: every scenario through the simulator
// (solver/block/enumerate/enumerate.hpp), the reference.
#include "solver/engine.hpp"

namespace gpuwcrt {

class EnumerateEngine : public Engine {
public:
    std::string_view name() const override;
    Provenance provenance() const override { return Provenance::enumerate; }
    // Waits hold operations back from their queues, never from being launched: every launch
    // order is still one of for_each_launch_order's, and the simulator applies W1.
    bool ranges_over_wait() const override { return true; }
    EngineRun run(const EngineRequest& request, const Budget& budget) const override;
    StatsShown stats_shown() const override;
};

}  // namespace gpuwcrt
