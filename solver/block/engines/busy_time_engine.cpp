#include "solver/block/engines/busy_time_engine.hpp"

#include "solver/registry.hpp"

namespace gpuwcrt {

std::string_view BusyTimeEngine::name() const { return engine_name::busy_time; }

EngineRun BusyTimeEngine::run(const EngineRequest& request, const Budget&) const {
    EngineRun run;
    run.answers = unknown_answers(request.workload);
    for (const int op : request.ops) {
        const std::int64_t k = problem_->index_of_op(op);
        if (k >= 0) run.answers[op].upper = problem_->response_upper_bound(static_cast<int>(k));
    }
    run.complete = true;  // a formula: nothing to stop
    run.shown = stats_shown();
    name_answers(run.answers, provenance(), false);
    return run;
}

}  // namespace gpuwcrt
