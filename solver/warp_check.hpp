#pragma once
// One point of the finishing-time check (SPEC §8): exact worst and best makespan from the
// chosen engines, cross-checked, every schedule re-validated warp by warp, and the verdict.
#include <optional>
#include <string>
#include <vector>

#include "model/warp_model.hpp"
#include "solver/z3_session.hpp"

namespace gpuwcrt {

struct WarpEngineRun {
    std::string engine;  // "explicit" or "smt"
    std::optional<int> worst, best;
    int worst_bound = 0, best_bound = 0;  // proved lower bound on worst / upper bound on best
    std::size_t states = 0;               // explicit
    int checks = 0;                       // smt
    std::string unknown_reason;           // smt, when a makespan stayed unknown
    long long milliseconds = 0;
};

enum class WarpOutcome { holds, refuted, unknown, no_conjecture };

struct WarpCheck {
    long long threads = 0;
    WarpProblem problem;
    std::optional<long long> ft;  // only for the TR program shape
    std::optional<int> worst, best;
    WarpSchedule worst_schedule, best_schedule;
    std::vector<WarpEngineRun> runs;
    bool engines_disagree = false;
    WarpOutcome outcome = WarpOutcome::unknown;
    std::string verdict;
};

struct WarpEngines {
    bool explicit_state = true;
    bool smt = false;
    SolverOptions smt_options;
};

// Throws std::logic_error when an engine's schedule breaks the rules or misstates its makespan.
WarpCheck check_warp(const WarpProblem& problem, long long threads, const WarpEngines& engines);

}  // namespace gpuwcrt
