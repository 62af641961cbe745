#include "solver/block/engines/exact_engine.hpp"

#include "solver/exact/explorer.hpp"
#include "solver/exact/problem.hpp"
#include "solver/registry.hpp"

namespace gpuwcrt {

std::string_view ExactEngine::name() const { return engine_name::exact; }

void ExactEngine::check_scope(const Workload& w) const { exact::require_exact_scope(w, integer_times(w)); }

EngineRun ExactEngine::run(const EngineRequest& request, const Budget& budget) const {
    ExactResult r =
        exact_wcrt(request.workload, request.options, budget, options_, request.progress, request.head_start);
    EngineRun run;
    run.answers = std::move(r.wcrt);
    run.stats.elapsed = r.stats.elapsed;
    run.stats.exact = r.stats;
    run.complete = r.complete;
    run.shown = stats_shown();
    name_answers(run.answers, provenance(), false);
    return run;
}

}  // namespace gpuwcrt
