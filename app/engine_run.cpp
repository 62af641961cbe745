#include "app/engine_run.hpp"

#include <algorithm>
#include <sstream>

#include "app/resource_limits.hpp"
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
        st["level_states"] = exact->level_states;  // stored at each level, from level 0
        st["pruned"] = exact->pruned;              // dropped by the drain bound (docs/theory/exact-engine.md)
        st["threads"] = exact->threads;            // worker threads of the search (of each process)
        if (exact->processes > 1) {                // across processes (docs/theory/distributed.md)
            st["processes"] = exact->processes;
            st["bytes_exchanged"] = exact->bytes_exchanged;
            st["level_bytes_exchanged"] = exact->level_bytes;
            Json rss = Json::array();
            for (long long kib : exact->process_peak_rss_kib) rss.push_back(kib / 1024);
            st["process_peak_rss_mib"] = std::move(rss);
        }
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
            << exact->pruned << " pruned, " << exact->threads << (exact->threads == 1 ? " thread" : " threads");
        if (exact->processes > 1) out << " in each of " << exact->processes << " processes";
        out << ")";
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

Budget whole_run_budget(const VerifyOptions& o, const Workload& w, const Engine& engine) {
    if (engine.ranges_over_frames() && !o.timeout) return run_budget(o);
    Budget b = Budget::until(run_start() + (o.timeout ? parse_timeout(*o.timeout) : default_time_limit(w.ops.size())));
    if (!o.timeout) b.deadline_reason = StopReason::time_limit;
    b.leave_table_on_timeout = true;  // the process ends right after the run
    return b;
}

Budget engines_budget(const Budget& run, std::size_t operations) {
    using std::chrono::milliseconds;
    if (!run.deadline) return run;
    // The output grows with the operations (each witness lists every operation): half a second
    // and a millisecond per operation, at most a fifth of the time left (bench/limits).
    const milliseconds left = run.remaining().value_or(milliseconds(0));
    const milliseconds output =
        milliseconds(500) + milliseconds(static_cast<long long>(std::min<std::size_t>(operations, 1'000'000)));
    // And earlier when the process runs slower than on an idle machine (stopped_for_output, app/resource_limits.hpp).
    return stopped_for_output(run.capped(left - std::min(left / 5, output)), run, operations);
}

std::string stop_note(const Budget& run) {
    if (!run.expired()) return "";
    if (run.expiry_reason() == StopReason::interrupted)
        return "interrupted: the answers are what was proven before the signal; the run did not finish";
    if (run.expiry_reason() == StopReason::time_limit)
        return "stopped at the default time limit (no --timeout): the bounds are proven, not final; "
               "give --timeout to search longer or shorter";
    return "";
}

}  // namespace gpuwcrt::app
