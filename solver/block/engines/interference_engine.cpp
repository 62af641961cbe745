#include "solver/block/engines/interference_engine.hpp"

#include "bounds/interference/interference.hpp"
#include "solver/registry.hpp"

namespace gpuwcrt {

std::string_view InterferenceEngine::name() const { return engine_name::interference; }

EngineRun InterferenceEngine::run(const EngineRequest& request, const Budget& budget) const {
    // A quarter of the time left at most: the searches after it need the rest, and every value
    // of the sweeps is proven whenever they stop.
    const InterferenceBounds b = interference_bounds(request.workload, budget.slice(1, 4));
    EngineRun run;
    run.answers = unknown_answers(request.workload);
    for (const int op : request.ops) run.answers[op].upper = b.response[op];
    run.complete = !b.stopped;
    run.shown = stats_shown();
    name_answers(run.answers, provenance(), false);
    return run;
}

}  // namespace gpuwcrt
