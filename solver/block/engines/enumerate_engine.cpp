#include "solver/block/engines/enumerate_engine.hpp"

#include "solver/block/enumerate/enumerate.hpp"
#include "solver/registry.hpp"

namespace gpuwcrt {

std::string_view EnumerateEngine::name() const { return engine_name::enumerate; }

StatsShown EnumerateEngine::stats_shown() const {
    StatsShown s;
    s.scenarios = Shown::yes;
    return s;
}

EngineRun EnumerateEngine::run(const EngineRequest& request, const Budget& budget) const {
    EnumerationResult r = enumerate_wcrt(request.workload, request.options, budget, [&](long long n) {
        if (request.progress) request.progress(std::to_string(n) + " scenarios simulated");
    });
    EngineRun run;
    run.answers = std::move(r.wcrt);
    run.stats = r.stats;
    run.complete = r.complete;
    run.shown = stats_shown();
    name_answers(run.answers, provenance(), true);  // an undecided answer's upper bound: the busy-time bound
    return run;
}

}  // namespace gpuwcrt
