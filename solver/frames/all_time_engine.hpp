#pragma once
// The all-time analysis (all_time.hpp) on the Engine interface: what auto runs on a workload
// with periodic or sporadic streams (engine_for, solver/registry.hpp). Its answers are per
// operation of the file, each bounding every frame; its witnesses are scenarios of the unrolled
// frames (EngineRun::frames), and its arguments are named in EngineRun::arguments.
#include "solver/engine.hpp"
#include "solver/frames/all_time.hpp"

namespace gpuwcrt {

class AllTimeEngine : public Engine {
    AllTimeOptions options_;

public:
    // Frames and waits are what it analyses; a workload that runs once it refuses (check_scope):
    // the engines of one frame analyse that.
    bool ranges_over_frames() const override { return true; }
    bool ranges_over_wait() const override { return true; }
    // Time-sliced contexts: the busy window per context (bounds/frames/sliced_busy_window.hpp).
    bool ranges_over_contexts() const override { return true; }
    void check_scope(const Workload& w) const override;
    std::string_view name() const override;
    explicit AllTimeEngine(AllTimeOptions options = {}) : options_(options) {}
    // Refuses a placement policy: its witnesses place blocks on any SM where they fit.
    EngineRun run(const EngineRequest& request, const Budget& budget) const override;
    StatsShown stats_shown() const override;
};

}  // namespace gpuwcrt
