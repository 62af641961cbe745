#pragma once
// Checks a per-warp schedule against the rules of docs/theory/semantics.md §8 warp by warp, independently of the
// count representation both engines use, so an engine bug cannot hide behind its own encoding.
#include <string>

#include "common/budget.hpp"
#include "model/warp/warp_model.hpp"

namespace gpuwcrt {

// Empty when `s` is a legal, complete interleaving; otherwise the first violation found.
// It takes W x makespan steps: with a budget, throws BudgetExhausted once the deadline passes.
std::string warp_schedule_violation(const WarpProblem& problem, const WarpSchedule& s, const Budget* budget = nullptr);

}  // namespace gpuwcrt
