#include "solver/block/engines/smt_engine.hpp"

#include "bounds/engine_options.hpp"
#include "bounds/engine_stats.hpp"
#include "solver/block/engines/per_operation.hpp"
#include "solver/block/smt/wcrt_smt.hpp"
#include "solver/registry.hpp"

namespace gpuwcrt {

std::string_view SmtEngine::name() const { return engine_name::smt; }

StatsShown SmtEngine::stats_shown() const {
    StatsShown s;
    s.solver_checks = Shown::yes;
    return s;
}

EngineRun SmtEngine::run(const EngineRequest& request, const Budget& budget) const {
    const Workload& w = request.workload;
    const bool link = problem_ != nullptr;
    const std::shared_ptr<const BlockProblem> p =
        link ? problem_ : std::make_shared<const BlockProblem>(make_block_problem(w));
    EngineRun run;
    run.shown = stats_shown();
    run.answers = unknown_answers(w);
    // When the encoding would not fit the memory budget, no solver is built: each operation
    // gets only the incumbent search that precedes it (a replayed lower bound, by simulation),
    // and a link says why in one step line instead of one per operation.
    const auto too_large = smt_memory_refusal(*p, request.options, budget);
    if (too_large && link) {
        run.steps.push_back("smt: no solver: " + *too_large + "; a replayed lower bound per operation only");
        if (request.progress) request.progress(run.steps.back());
    }
    std::size_t asked = 0;
    for_each_operation(request.ops, budget, link ? Share::even_split : Share::all_left, [&](int op, const Budget& b) {
        const Budget::Clock::time_point t0 = Budget::Clock::now();
        EngineStats st;
        WcrtAnswer& a = run.answers[op];
        a = smt_maximise(w, *p, op, request.options, b, link ? st : run.stats, request.progress);
        run.stats.solver_calls += link ? st.solver_calls : 0;
        ++asked;
        std::string line = link ? "smt on '" + w.ops[op].name + "': " + seconds_since(t0) + ", " + to_string(a.status)
                                : w.ops[op].name + ": " + to_string(a.status) + " " +
                                      (a.lower ? human_string(*a.lower) : std::string("-"));
        if (link && too_large) return;
        if (link) run.steps.push_back(line);
        if (request.progress) request.progress(line);
    });
    run.complete = !too_large && asked == request.ops.size() && !budget.expired();
    if (!link) name_answers(run.answers, provenance(), true);  // an undecided answer's upper bound: the busy-time bound
    return run;
}

Engine::BoundQuestion SmtEngine::bound_question(const Workload& w, const EngineOptions& options,
                                                const ProgressSink& progress) const {
    auto p = std::make_shared<const BlockProblem>(make_block_problem(w));  // the refusal, before any question
    return [&w, p, options, progress](int op, const Time& bound, const Budget& b, EngineStats& stats) {
        return smt_certify(w, *p, op, bound, options, b, stats, progress);
    };
}

}  // namespace gpuwcrt
