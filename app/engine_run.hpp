#pragma once
// The one place `wcrt` and `certify` choose and run an engine (--engine auto|bounds|exact|smt|
// enumerate): each gives, per operation, a replayed lower bound and a proven upper bound, named
// with the engine that gave them (WcrtAnswer::lower_by / upper_by).
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/verification.hpp"
#include "solver/exact/explorer.hpp"

namespace gpuwcrt::app {

struct EngineRun {
    std::vector<WcrtAnswer> wcrt;     // per operation, indexed like Workload::ops
    EngineStats stats;
    std::optional<ExactStats> exact;  // when the exact engine ran
    std::vector<std::string> steps;   // auto: what ran, one line each
};

// Before any work: the chosen engine's refusal of a feature it cannot range over (exit 3).
// auto refuses only what no engine covers, and only once it has tried (auto_wcrt).
void check_engine_scope(const Workload& w, const VerifyOptions& o);

// `settled`: when an operation needs no more work (auto; default: exact). The SMT engine runs
// per operation in `ops`; the other engines answer every operation at once.
EngineRun run_wcrt_engine(const Workload& w, const std::vector<int>& ops, const VerifyOptions& o,
                          const EngineOptions& eo, const Budget& budget, Progress& progress,
                          const std::function<bool(const WcrtAnswer&)>& settled = {});

// {"seconds", and per engine: "scenarios", "solver":{"checks"}, "states"/"levels"/
// "peak_level_states", "pruned", "threads" (exact), "abstract_states" (bounds), "steps" (auto)}.
Json stats_json(const VerifyOptions& o, const EngineRun& run);
// The last line of the text output: "states stored: …, 2.1 s".
std::string stats_line(const VerifyOptions& o, const EngineRun& run);

}  // namespace gpuwcrt::app
