#include "solver/block/engines/bounds_engine.hpp"

#include "solver/registry.hpp"

namespace gpuwcrt {

std::string_view BoundsEngine::name() const { return engine_name::bounds; }

StatsShown BoundsEngine::stats_shown() const {
    StatsShown s;
    s.scenarios = Shown::json;  // simulations of the lower-bound search
    s.abstract_states = Shown::yes;
    return s;
}

EngineRun BoundsEngine::run(const EngineRequest& request, const Budget& budget) const {
    BoundsHooks hooks;
    hooks.explore_first = static_cast<bool>(request.settled);     // a question upper bounds may settle (certify)
    hooks.enough = [&](const std::vector<WcrtAnswer>& answers) {  // EngineRequest::settled, default exact
        publish_progress(request.workload, answers, request.ops, request.settled, budget.counters());
        for (const int op : request.ops)
            if (request.settled ? !request.settled(answers[op]) : answers[op].status != WcrtStatus::exact) return false;
        return true;
    };
    if (report_rounds_ && request.progress)
        hooks.on_round = [&](const BoundsRound& x) {
            request.progress("abstraction with " + std::to_string(x.states_per_set) + " states per set and " +
                             std::to_string(x.partial_cap) + " placements per block: " + std::to_string(x.states) +
                             " states, " + (x.complete ? "" : "stopped, ") + std::to_string(x.open_after) +
                             " operations open");
        };
    BoundsResult r = abstraction_bounds(request.workload, request.options, budget, options_, hooks);
    EngineRun run;
    for (const std::string& line : r.steps)
        if (request.progress) request.progress(line);
    run.steps = std::move(r.steps);
    run.answers = std::move(r.wcrt);
    run.stats = r.stats;
    run.complete = !r.rounds.empty() && r.rounds.back().complete;
    run.shown = stats_shown();
    run.shown.steps = !run.steps.empty();
    name_answers(run.answers, provenance(), false);
    return run;
}

}  // namespace gpuwcrt
