#pragma once
// Legal schedules from per-warp priority rules: the witnesses of the bounds engine (a lower
// bound on the worst case, an upper bound on the best). Each cycle the ready warps are served
// in priority order, lowest fairness level first, until every unit (and the issue limit) is
// full, so the schedule is work-conserving and fair by construction; the caller still
// re-validates it with warp_schedule_violation.
#include <string>
#include <vector>

#include "common/budget.hpp"
#include "sim/warp/warp_step.hpp"

namespace gpuwcrt {

struct WarpPriorityRule {
    // The last `starved` warps are served after every other one (the very last warp last):
    // with starved = 1 and `ahead` false, the other W - 1 warps play a behind-first schedule
    // that keeps the LD/ST unit busy while the starved warp waits at its first load, which
    // then runs alone (docs/theory/warp/warp-conjecture.md, "A worst case that meets the bound").
    int starved = 0;
    bool ahead = false;  // among the others: furthest program counter first (else furthest behind)
    std::string name() const;
};

struct WarpPrioritySchedule {
    WarpPriorityRule rule;
    int makespan = 0;
    std::vector<WarpIssue> issues;  // cycle by cycle, in the count form the engines share
};

// Plays `rule` to the end. With a budget, throws BudgetExhausted when it runs out.
WarpPrioritySchedule play_priority_rule(const WarpProblem& problem, const WarpPriorityRule& rule,
                                        const Budget* budget = nullptr);

// The rules the bounds engine tries (starved 0..3 warps, behind- and ahead-first).
std::vector<WarpPriorityRule> priority_portfolio(int warps);

}  // namespace gpuwcrt
