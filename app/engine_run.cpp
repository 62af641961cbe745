#include "app/engine_run.hpp"

#include <sstream>

#include "report/text_table.hpp"

namespace gpuwcrt::app {
namespace {

bool in_text(Shown s, long long value) { return s == Shown::yes || (s == Shown::nonzero && value > 0); }

}  // namespace

Json stats_json(const EngineRun& run) {
    const StatsShown& shown = run.shown;
    Json st = {{"seconds", static_cast<double>(run.stats.elapsed.count()) / 1000.0}};  // wall clock
    if (shown.solver_checks != Shown::no) st["solver"] = {{"checks", run.stats.solver_calls}};
    if (shown.scenarios != Shown::no) st["scenarios"] = run.stats.scenarios;
    if (shown.abstract_states != Shown::no) st["abstract_states"] = run.stats.abstract_states;
    if (const auto& exact = run.stats.exact) {
        st["states"] = exact->states;
        st["levels"] = exact->levels;
        st["peak_level_states"] = exact->peak_level_states;
        st["pruned"] = exact->pruned;    // dropped by the drain bound (docs/exact-engine.md)
        st["threads"] = exact->threads;  // worker threads of the search
    }
    if (shown.steps) st["steps"] = run.steps;
    return st;
}

std::string stats_line(const EngineRun& run) {
    const StatsShown& shown = run.shown;
    std::ostringstream out;
    const char* sep = "";
    if (shown.steps)
        for (const std::string& s : run.steps) {  // within the tables' width, continued indented
            const std::vector<std::string> lines = wrap_text(s, max_table_width - 4);
            for (std::size_t i = 0; i < lines.size(); ++i) out << (i == 0 ? "  " : "    ") << lines[i] << "\n";
        }
    if (const auto& exact = run.stats.exact) {
        out << "states stored: " << exact->states << " (at most " << exact->peak_level_states << " per level, "
            << exact->pruned << " pruned, " << exact->threads << " threads)";
        sep = ", ";
    }
    if (in_text(shown.abstract_states, run.stats.abstract_states)) {
        out << sep << "abstract states: " << run.stats.abstract_states;
        sep = ", ";
    }
    if (in_text(shown.solver_checks, run.stats.solver_calls)) {
        out << sep << "solver checks: " << run.stats.solver_calls;
        sep = ", ";
    }
    if (in_text(shown.scenarios, run.stats.scenarios)) {
        out << sep << "scenarios simulated: " << run.stats.scenarios;
        sep = ", ";
    }
    out << sep << static_cast<double>(run.stats.elapsed.count()) / 1000.0 << " s";  // wall clock
    return out.str();
}

}  // namespace gpuwcrt::app
