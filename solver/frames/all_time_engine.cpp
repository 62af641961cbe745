#include "solver/frames/all_time_engine.hpp"

#include "solver/registry.hpp"

namespace gpuwcrt {

std::string_view AllTimeEngine::name() const { return engine_name::all_time; }

void AllTimeEngine::check_scope(const Workload& w) const {
    if (!w.repeats() && !w.sliced())
        throw InputError({w.source, 1, 1},
                         "the all-time analysis needs a periodic or sporadic stream; "
                         "a workload that runs once is analysed by the engines of one frame");
}

EngineRun AllTimeEngine::run(const EngineRequest& request, const Budget& budget) const {
    const Workload& w = request.workload;
    check_scope(w);
    if (request.options.policy != Policy::chooser)
        throw InputError({w.source, 1, 1},
                         "the all-time analysis of periodic and sporadic streams ranges over every SM placement "
                         "(--policy any) only: its replayed frames may place blocks where " +
                             policy_name(request.options.policy) + " would not");
    const auto t0 = Budget::Clock::now();
    AllTimeOptions o = options_;
    if (request.settled) o.settled = request.settled;
    AllTimeResult r = all_time_bounds(w, budget, o);
    EngineRun out;
    out.answers = std::move(r.answers);
    out.frames = std::move(static_cast<FramesRun&>(r));
    out.arguments = argument_sentences(*out.frames);
    out.stats.scenarios = out.frames->simulations;
    out.stats.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Budget::Clock::now() - t0);
    out.complete = !budget.expired();
    out.shown = stats_shown();
    return out;
}

StatsShown AllTimeEngine::stats_shown() const {
    StatsShown s;
    s.scenarios = Shown::json;
    return s;
}

}  // namespace gpuwcrt
