#pragma once
// One point of the finishing-time check (docs/theory/semantics.md §8): exact worst and best makespan from the
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

// A warp makespan's answer, per goal: the worst case (a maximum: a legal schedule gives `lower`,
// a proof `upper`) or the best case (a minimum: a schedule gives `upper`, a proof `lower`).
using WarpAnswer = BoundedAnswer<long long, WarpSchedule>;

struct WarpEngineRun {
    Provenance engine = Provenance::none;  // bounds, explicit_state or smt: who gives its bounds
    // Exact when the engine decided the goal. Else a legal schedule's makespan bounds it (the
    // explicit engine's may have no schedule), and the bounds engine proves the other side
    // (bounds/warp/warp_bounds). The schedules move to the check (merge): runs keep no witness.
    WarpAnswer worst, best;
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
    // Per goal the first exact answer of the engines, with its schedule. Else the best bounds of
    // all runs, unknown even where they meet; the worst case's witness then is the bounds
    // engine's longest schedule, kept only when it refutes FT. It may fall short of `lower`
    // when a search reached more: only that schedule refutes, as the verdicts document.
    WarpAnswer worst, best;
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
