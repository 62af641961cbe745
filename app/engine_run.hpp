#pragma once
// The statistics of an engine run (solver/engine.hpp) in the outputs of `wcrt` and `certify`:
// each engine says which counters it measures (EngineRun::shown).
#include <string>

#include "app/verification.hpp"
#include "common/budget.hpp"
#include "model/workload.hpp"
#include "report/json.hpp"
#include "solver/engine.hpp"

namespace gpuwcrt::app {

// {"seconds", and what the engine measures: "solver":{"checks"}, "scenarios",
// "abstract_states", the exact search's "states"/"levels"/"peak_level_states"/"pruned"/
// "threads", a chain's "steps"}.
Json stats_json(const EngineRun& run);
// The last line of the text output ("states stored: …, 2.1 s"), after a chain's step lines.
std::string stats_line(const EngineRun& run);

// The whole run's budget, counted from the run's start (mark_run_start): --timeout, else the
// default time limit (default_time_limit, common/budget.hpp). The engine over frames gets none
// here: the all-time analysis has its own default.
Budget whole_run_budget(const VerifyOptions& o, const Workload& w, const Engine& engine);
// The deadline of the engines inside `run`: a moment before its end, so that the columns and
// the output of `operations` operations that follow them still end within it.
Budget engines_budget(const Budget& run, std::size_t operations);

// The line a stopped run prints on stderr (empty when the run was not stopped so).
std::string stop_note(const Budget& run);

}  // namespace gpuwcrt::app
