#pragma once
// One point of the finishing-time check (docs/semantics.md §8): exact worst and best makespan from the
// chosen engines, cross-checked, every schedule re-validated warp by warp, and the verdict.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "bounds/answer.hpp"
#include "common/budget.hpp"
#include "model/warp/warp_model.hpp"
#include "solver/z3/z3_session.hpp"

namespace gpuwcrt {

struct WarpEngineRun {
    Provenance engine = Provenance::none;  // bounds, explicit_state or smt
    std::optional<int> worst, best;
    // Proved lower bound on the worst / upper bound on the best case (a legal schedule's
    // makespan), when no exact value is known; nullopt when not even that was found.
    std::optional<int> worst_bound, best_bound;
    // Bounds engine: the proven upper bound on the worst / lower bound on the best case
    // (bounds/warp/warp_bounds), and what proves and witnesses them.
    std::optional<long long> worst_upper, best_lower;
    std::string detail;
    std::size_t states = 0;      // explicit
    int checks = 0;              // smt
    std::string unknown_reason;  // when a makespan stayed unknown: "timeout", "memory limit", Z3's words
    long long milliseconds = 0;
};

enum class WarpOutcome { holds, refuted, unknown, no_conjecture };

struct WarpCheck {
    long long threads = 0;
    WarpProblem problem;
    std::optional<long long> ft;  // only for the TR program shape
    std::optional<int> worst, best;
    // When the worst case is not known exactly: the best proven bounds on it (the lower one
    // witnessed by `worst_schedule` when the conjecture is refuted by it).
    std::optional<long long> worst_lower, worst_upper;
    WarpSchedule worst_schedule, best_schedule;
    std::vector<WarpEngineRun> runs;
    bool engines_disagree = false;
    WarpOutcome outcome = WarpOutcome::unknown;
    std::string verdict;
    std::string cross_check;  // smt_cross_check's one-line account; empty when none was asked for
};

struct WarpEngines {
    // The bounds engine first (proven bounds and priority-rule witnesses, no search); with
    // `explicit_if_open` the explicit engine then runs only for a goal the bounds left open.
    bool bounds = false;
    bool explicit_if_open = false;
    bool explicit_state = true;
    bool smt = false;
    // After the engines, the SMT engine confirms an exact explicit answer (smt_cross_check).
    bool smt_cross_check = false;
    SolverOptions smt_options;  // its timeout is cut to the budget's deadline
};

// Runs the engines one after the other within `budget` (deadline and memory for the whole
// point; progress counters). An engine that runs out is unknown with its bounds, never a
// makespan. Throws std::logic_error when an engine's schedule breaks the rules or misstates
// its makespan.
WarpCheck check_warp(const WarpProblem& problem, long long threads, const WarpEngines& engines, Budget& budget);
WarpCheck check_warp(const WarpProblem& problem, long long threads, const WarpEngines& engines);

// The SMT engine as a confirmation of an exact explicit answer, attempted only on problems of
// at most `max_cells` warp-instructions (W × program length) and within cross_check_time of
// the budget (a slice of it, never past its deadline): a disagreement is flagged as one
// between engines; running out is reported in c.cross_check and leaves the verdict alone.
struct CrossCheckOptions {
    int max_cells = 64;
};
inline constexpr std::chrono::milliseconds cross_check_time{2000};
void smt_cross_check(WarpCheck& c, const CrossCheckOptions& options, const Budget& budget);

}  // namespace gpuwcrt
