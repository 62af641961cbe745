#pragma once
// Exact worst-/best-case makespan of the warp model with Z3 over the order-encoded counts of
// encode/warp/warp_unary_encoding (clauses and cardinalities, which Z3's SAT core propagates
// directly, where integer counts are bit-blasted; measured: bench/RESULTS.md, "warp").
// A greedy interleaving gives the first incumbent; each SAT answer yields a better one, an
// UNSAT answer proves it optimal. Before each such question, Z3-proved per-cycle progress
// bounds of the busiest unit are asserted (docs/theory/warp/warp-conjecture.md). A timeout leaves the answer unknown,
// with the bound proved so far — never a makespan.
#include <optional>
#include <string>
#include <vector>

#include "common/budget.hpp"
#include "sim/warp/warp_step.hpp"
#include "solver/z3/z3_session.hpp"

namespace gpuwcrt {

struct WarpSmtOutcome {
    std::optional<int> makespan;    // exact worst (best) case, when the solver proved it
    int incumbent = 0;              // makespan of `issues`: a lower (upper) bound on the worst (best)
    std::vector<WarpIssue> issues;  // an interleaving realising `incumbent`
    int checks = 0;
    CheckResult last;  // the answer that ended the search
};

// `options.logic` defaults to "QF_FD" (Z3's SAT core with native cardinality constraints).
// `hint` (e.g. another engine's answer) only chooses the first makespan asked about: the
// result still rests on this engine's own models and UNSAT answers alone.
// `budget` (deadline, memory): running out while building the encoding, inside Z3 or between
// checks is "unknown" with last.reason_text "timeout" or "memory limit", and the incumbent
// (0 with no issues when not even the greedy schedule was finished).
WarpSmtOutcome smt_worst_makespan(const WarpProblem& problem, SolverOptions options, std::optional<int> hint = {},
                                  const Budget* budget = nullptr);
WarpSmtOutcome smt_best_makespan(const WarpProblem& problem, SolverOptions options, std::optional<int> hint = {},
                                 const Budget* budget = nullptr);

}  // namespace gpuwcrt
