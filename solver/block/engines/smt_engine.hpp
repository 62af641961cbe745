#pragma once
// `--engine smt` on the Engine interface: Z3 over the block-level encoding
// (solver/block/smt/wcrt_smt.hpp), one operation at a time.
#include <memory>

#include "bounds/engine_options.hpp"
#include "encode/block/block_problem.hpp"
#include "solver/engine.hpp"

namespace gpuwcrt {

class SmtEngine : public Engine {
public:
    // Alone: every operation asked is asked, each with all the time left; answers named after it.
    SmtEngine() = default;
    // A link of the auto chain: `problem` built once by the chain, the time left split evenly
    // over the operations still open, a step line per operation, answers named by the chain.
    explicit SmtEngine(std::shared_ptr<const BlockProblem> problem) : problem_(std::move(problem)) {}

    std::string_view name() const override;
    Provenance provenance() const override { return Provenance::smt; }
    EngineRun run(const EngineRequest& request, const Budget& budget) const override;
    StatsShown stats_shown() const override;
    // certify and rta-check ask the solver for the bound itself (smt_certify).
    BoundQuestion bound_question(const Workload& w, const EngineOptions& options,
                                 const ProgressSink& progress) const override;

private:
    std::shared_ptr<const BlockProblem> problem_;
};

}  // namespace gpuwcrt
