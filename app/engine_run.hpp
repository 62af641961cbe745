#pragma once
// The statistics of an engine run (solver/engine.hpp) in the outputs of `wcrt` and `certify`:
// each engine says which counters it measures (EngineRun::shown).
#include <string>

#include "report/json.hpp"
#include "solver/engine.hpp"

namespace gpuwcrt::app {

// {"seconds", and what the engine measures: "solver":{"checks"}, "scenarios",
// "abstract_states", the exact search's "states"/"levels"/"peak_level_states"/"pruned"/
// "threads", a chain's "steps"}.
Json stats_json(const EngineRun& run);
// The last line of the text output ("states stored: …, 2.1 s"), after a chain's step lines.
std::string stats_line(const EngineRun& run);

}  // namespace gpuwcrt::app
