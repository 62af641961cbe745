#include "app/engine_run.hpp"

#include <sstream>

#include "encode/block/block_problem.hpp"
#include "solver/block/auto_engine.hpp"
#include "solver/block/enumerate.hpp"
#include "solver/exact/problem.hpp"
#include "solver/block/wcrt_smt.hpp"

namespace gpuwcrt::app {
namespace {

void name_engine(std::vector<WcrtAnswer>& answers, const std::string& engine) {
    for (WcrtAnswer& a : answers) {
        if (a.wcrt && a.lower_by.empty()) a.lower_by = engine;
        // An undecided SMT or enumeration answer's upper bound is the busy-time argument's.
        const bool busy = a.status != WcrtStatus::exact && (engine == "smt" || engine == "enumerate");
        if (a.upper_bound && a.upper_by.empty()) a.upper_by = busy ? "busy-time bound" : engine;
    }
}

}  // namespace

void check_engine_scope(const Workload& w, const VerifyOptions& o) {
    // smt and enumerate range over intervals and windows on the grid (docs/encoding.md).
    if (o.engine == "exact") exact::require_exact_scope(w, integer_times(w));  // its own message
}

EngineRun run_wcrt_engine(const Workload& w, const std::vector<int>& ops, const VerifyOptions& o,
                          const EngineOptions& eo, const Budget& budget, Progress& progress,
                          const std::function<bool(const WcrtAnswer&)>& settled) {
    EngineRun run;
    auto say = [&](const std::string& line) { progress.say(line); };
    if (o.engine == "auto") {
        AutoResult r = auto_wcrt(w, ops, eo, budget, AutoOptions{settled, say});
        run.wcrt = std::move(r.wcrt);
        run.stats = r.stats;
        run.exact = r.exact;
        run.steps = std::move(r.steps);
        return run;
    }
    if (o.engine == "bounds") {
        BoundsResult r = bounds_engine(w, eo, budget, progress);
        run.wcrt = std::move(r.wcrt);
        run.stats = r.stats;
    } else if (o.engine == "exact") {
        ExactResult r = run_exact_engine(w, eo, budget, progress);
        run.wcrt = std::move(r.wcrt);
        run.exact = r.stats;
        run.stats.elapsed = r.stats.elapsed;
    } else if (o.engine == "enumerate") {
        EnumerationResult r = enumerate_wcrt(w, eo, budget, [&](long long n) { say(std::to_string(n) + " scenarios simulated"); });
        run.wcrt = std::move(r.wcrt);
        run.stats = r.stats;
    } else {
        const BlockProblem p = make_block_problem(w);
        run.wcrt.resize(w.ops.size());
        for (std::size_t i = 0; i < w.ops.size(); ++i) run.wcrt[i].op = static_cast<int>(i);
        for (int op : ops) {
            run.wcrt[op] = smt_maximise(w, p, op, eo, budget, run.stats, say);
            say(w.ops[op].name + ": " + to_string(run.wcrt[op].status) + " " + time_or_dash(run.wcrt[op].wcrt));
        }
    }
    name_engine(run.wcrt, o.engine);
    return run;
}

Json stats_json(const VerifyOptions& o, const EngineRun& run) {
    Json st = {{"seconds", static_cast<double>(run.stats.elapsed.count()) / 1000.0}};  // wall clock
    if (o.engine == "smt" || o.engine == "auto") st["solver"] = {{"checks", run.stats.solver_calls}};
    if (o.engine == "enumerate" || o.engine == "bounds" || o.engine == "auto") st["scenarios"] = run.stats.scenarios;
    if (o.engine == "bounds" || o.engine == "auto") st["abstract_states"] = run.stats.abstract_states;
    if (run.exact) {
        st["states"] = run.exact->states;
        st["levels"] = run.exact->levels;
        st["peak_level_states"] = run.exact->peak_level_states;
        st["pruned"] = run.exact->pruned;    // dropped by the drain bound (docs/exact-engine.md)
        st["threads"] = run.exact->threads;  // worker threads of the search
    }
    if (o.engine == "auto") st["steps"] = run.steps;
    return st;
}

std::string stats_line(const VerifyOptions& o, const EngineRun& run) {
    std::ostringstream out;
    const char* sep = "";
    if (o.engine == "auto")
        for (const std::string& s : run.steps) out << "  " << s << "\n";
    if (run.exact) {
        out << "states stored: " << run.exact->states << " (at most " << run.exact->peak_level_states << " per level, "
            << run.exact->pruned << " pruned, " << run.exact->threads << " threads)";
        sep = ", ";
    }
    if (o.engine == "bounds" || (o.engine == "auto" && run.stats.abstract_states > 0)) {
        out << sep << "abstract states: " << run.stats.abstract_states;
        sep = ", ";
    }
    if (o.engine == "smt" || (o.engine == "auto" && run.stats.solver_calls > 0)) {
        out << sep << "solver checks: " << run.stats.solver_calls;
        sep = ", ";
    }
    if (o.engine == "enumerate") {
        out << sep << "scenarios simulated: " << run.stats.scenarios;
        sep = ", ";
    }
    out << sep << static_cast<double>(run.stats.elapsed.count()) / 1000.0 << " s";  // wall clock
    return out.str();
}

}  // namespace gpuwcrt::app
