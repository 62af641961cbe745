#pragma once
// Checks a per-warp schedule against the rules of SPEC §8 warp by warp, independently of the
// count representation both engines use, so an engine bug cannot hide behind its own encoding.
#include <string>

#include "bounds/warp_budget.hpp"
#include "model/warp_model.hpp"

namespace gpuwcrt {

// Empty when `s` is a legal, complete interleaving; otherwise the first violation found.
// It takes W x makespan steps: with a budget, throws WarpStopped once the deadline passes.
std::string warp_schedule_violation(const WarpProblem& problem, const WarpSchedule& s,
                                    const WarpBudget* budget = nullptr);

}  // namespace gpuwcrt
