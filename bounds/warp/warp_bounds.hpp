#pragma once
// Proven bounds on the extreme makespans of the warp model (docs/theory/semantics.md §8) that need no search:
// every lemma is proved in docs/theory/warp/warp-conjecture.md ("Bounds without search") and applies only
// when the problem meets its stated conditions, which are checked here on the flattened
// program, never assumed from the TR's shape.
#include <string>
#include <vector>

#include "model/warp/warp_model.hpp"

namespace gpuwcrt {

struct WarpProvenBound {
    long long cycles = 0;
    std::string lemma;  // which lemma of docs/theory/warp/warp-conjecture.md proves it, for the report
};

// The least of the applicable upper bounds on the worst-case makespan (any fairness).
WarpProvenBound worst_case_upper_bound(const WarpProblem& problem);
// The greatest of the applicable lower bounds on the best-case makespan (any fairness).
WarpProvenBound best_case_lower_bound(const WarpProblem& problem);

// Building blocks, exposed for the tests.
// Cycle at which a warp running alone issues each instruction (1-based), and its solo length
// (the cycle after its last instruction's latency, minus one: sum of the latencies).
std::vector<long long> solo_issue_cycles(const std::vector<WarpInstr>& program);
long long solo_cycles(const std::vector<WarpInstr>& program);

}  // namespace gpuwcrt
