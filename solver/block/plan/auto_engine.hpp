#pragma once
// `--engine auto`, the default of wcrt and certify (docs/theory/verification-engines.md): a chain of
// the other engines on the Engine interface, within one budget, in the order of its plan
// (solver/block/plan/run_plan.hpp: cheap estimates of the workload decide it; the interference
// bound first; the exact search next where it is estimated small, with the abstraction's quick
// pass beside it once it runs long; the SMT engine one operation at a time; the busy-time bound
// last). Every link is made by plan_link (solver/registry.hpp), none here.
// Per operation it keeps the largest replayed lower bound and the smallest proven upper bound,
// with the engine that gave each (absorb, bounds/answer.hpp); exact iff they meet. An
// operation is no longer pursued once EngineRequest::settled says so (default: exact).
#include "solver/engine.hpp"

namespace gpuwcrt {

class AutoEngine : public Engine {
public:
    std::string_view name() const override;
    // Throws InputError only when no engine of the chain covers the workload (e.g. block-time
    // intervals together with priorities): the messages of the engines that refused it.
    EngineRun run(const EngineRequest& request, const Budget& budget) const override;
    StatsShown stats_shown() const override;
};

}  // namespace gpuwcrt
