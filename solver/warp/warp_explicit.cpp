#include "solver/warp/warp_explicit.hpp"

#include <new>

#include "solver/warp/warp_frontier.hpp"

namespace gpuwcrt {
namespace {

// Cycles of the greedy schedule (worst: warps ahead first, best: behind first), which every
// rule allows, so it bounds the extreme; nullopt when the budget ran out first.
std::optional<int> greedy_makespan(const WarpProblem& p, WarpGoal goal, const Budget& budget) {
    try {
        const WarpStepper step(p);
        WarpState s = step.initial();
        int cycles = 0;
        while (!step.finished(s)) {
            s = step.apply(
                s, step.greedy(s, goal == WarpGoal::worst ? WarpGreedy::ahead_first : WarpGreedy::behind_first));
            if (++cycles % 1024 == 0 && budget.expired()) return std::nullopt;
        }
        return cycles;
    } catch (const std::bad_alloc&) {
        return std::nullopt;
    }
}

}  // namespace

WarpExtreme explicit_extreme(const WarpProblem& problem, WarpGoal goal, const Budget& budget) {
    WarpFrontierOptions options;
    options.best_only = goal == WarpGoal::best;  // the best case is settled at the first finish
    WarpExtreme out;
    {
        WarpExtremes both = frontier_extremes(problem, budget, options);  // its frontiers are freed here
        out = std::move(goal == WarpGoal::worst ? both.worst : both.best);
    }
    if (!out.stopped) return out;
    // The greedy bound gets its own short grace period (it is linear in the makespan), shorter
    // when the run's deadline has passed: a point runs two searches, and the whole point must
    // end within its --timeout + 1 s.
    Budget grace;
    const auto now = Budget::Clock::now();
    grace.deadline = now + std::chrono::seconds(1);
    if (budget.deadline)
        grace.deadline = std::min(*grace.deadline, std::max(*budget.deadline, now) + std::chrono::milliseconds(200));
    out.bound = greedy_makespan(problem, goal, grace);
    return out;
}

}  // namespace gpuwcrt
