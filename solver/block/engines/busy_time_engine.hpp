#pragma once
// The busy-time bound of docs/theory/encoding.md on the Engine interface: a link of auto's chain, the
// last one (solver/block/plan/run_plan.hpp), for the operations every earlier link left without
// an upper bound (a step stopped on time before any pass proved one).
#include <memory>

#include "encode/block/block_problem.hpp"
#include "solver/engine.hpp"

namespace gpuwcrt {

class BusyTimeEngine : public Engine {
public:
    // `problem`: the SMT engine's, built once by the chain; the bound is proven for its scope.
    explicit BusyTimeEngine(std::shared_ptr<const BlockProblem> problem) : problem_(std::move(problem)) {}
    std::string_view name() const override;
    Provenance provenance() const override { return Provenance::busy_time; }
    // An upper bound for each operation asked that is a kernel of the problem; none for others.
    EngineRun run(const EngineRequest& request, const Budget& budget) const override;
    StatsShown stats_shown() const override { return {}; }

private:
    std::shared_ptr<const BlockProblem> problem_;
};

}  // namespace gpuwcrt
