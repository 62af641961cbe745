#pragma once
// The warp model as a transition system over count vectors. Warps run the same program, so a
// state is how many warps sit at each (program counter, cycles still to wait); successors are
// the legal issue vectors of one cycle (docs/theory/semantics.md §8: capacity, work conservation, fairness).
#include <cstdint>
#include <functional>
#include <vector>

#include "common/budget.hpp"
#include "model/warp/warp_model.hpp"

namespace gpuwcrt {

using WarpState = std::vector<std::uint16_t>;  // index pc * slots + wait; pc == P means finished
using WarpIssue = std::vector<std::uint16_t>;  // warps issuing instruction p this cycle

// Which warp a greedy incumbent favours when the fairness level leaves a choice.
enum class WarpGreedy { ahead_first, behind_first };

class WarpStepper {
public:
    explicit WarpStepper(const WarpProblem& problem);

    const WarpProblem& problem() const { return problem_; }
    const std::vector<WarpInstr>& program() const { return instr_; }
    int length() const { return static_cast<int>(instr_.size()); }

    WarpState initial() const;
    bool finished(const WarpState& s) const;
    int ready(const WarpState& s, int pc) const { return s[index(pc, 0)]; }

    // Every legal issue vector of the next cycle (none twice). Throws BudgetExhausted (memory)
    // rather than list more than limit_successors() allows: without fairness a wide unit can
    // split its issues among many program counters in astronomically many ways.
    std::vector<WarpIssue> successors(const WarpState& s) const;
    // The same issue vectors in the same order, handed to `visit` one by one in a buffer that
    // is reused (successors() collects them): a search over billions of states should not
    // allocate a list per state.
    void for_each_successor(const WarpState& s, const std::function<void(const WarpIssue&)>& visit) const;
    // With a budget, listing them also stops at its deadline.
    void limit_successors(std::size_t most, const Budget* budget = nullptr) {
        max_successors_ = most;
        budget_ = budget;
    }
    WarpIssue greedy(const WarpState& s, WarpGreedy bias) const;
    WarpState apply(const WarpState& s, const WarpIssue& x) const;
    // The same step into a caller's buffer: a search applying billions of issue vectors
    // should not allocate for each.
    void apply_into(const WarpState& s, const WarpIssue& x, WarpState& n) const;

    // Plays `prefix` and then `bias` to the end; returns every cycle's issue vector. With a
    // budget, throws BudgetExhausted when it runs out on the way.
    std::vector<WarpIssue> complete(const std::vector<WarpIssue>& prefix, WarpGreedy bias,
                                    const Budget* budget = nullptr) const;

private:
    std::size_t index(int pc, int wait) const {
        return static_cast<std::size_t>(pc) * static_cast<std::size_t>(slots_) + static_cast<std::size_t>(wait);
    }
    // What one enumeration of issue vectors carries through its recursion.
    struct Enumeration {
        const WarpState& s;
        const std::function<void(const WarpIssue&)>& visit;
        std::vector<int> most, counts;  // per unit: at most / exactly this many issues
        WarpIssue x;
        std::size_t listed = 0;
    };
    // Each way of sharing `left` issues among units u, u + 1, ...
    void share(Enumeration& e, std::size_t u, int left) const;
    // Unit u's ways of issuing exactly counts[u] warps, lowest levels first, each followed by
    // every way of the units after it.
    void unit_choices(Enumeration& e, std::size_t u) const;
    // The boundary level of unit u: every split of `left` issues among pcs[k], pcs[k + 1], ...
    void split(Enumeration& e, std::size_t u, const std::vector<int>& pcs, std::size_t k, int left) const;
    std::vector<int> work_conserving_counts_max(const WarpState& s) const;
    void guard(std::size_t listed) const {
        if (listed > max_successors_) throw BudgetExhausted(StopReason::memory);
        if (budget_ && listed % 4096 == 0) budget_->check();
    }

    WarpProblem problem_;
    std::vector<WarpInstr> instr_;
    int slots_ = 1;
    std::size_t max_successors_ = static_cast<std::size_t>(-1);
    const Budget* budget_ = nullptr;
    std::vector<std::vector<std::vector<int>>> by_unit_level_;  // [unit][level] -> pcs
};

// Gives warps identities: rows in the layout of the TR's figures (lowest-numbered ready warp
// at a program counter issues first, which is how the TR numbers its warps).
// With a budget, throws BudgetExhausted once the deadline passes (W x makespan steps).
WarpSchedule schedule_from_issues(const WarpProblem& problem, const std::vector<WarpIssue>& issues,
                                  const Budget* budget = nullptr);

}  // namespace gpuwcrt
