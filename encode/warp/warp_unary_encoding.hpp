#pragma once
// SAT encoding of the warp model (docs/theory/semantics.md §8) over order-encoded counts: X(p, c, k) = "at least k
// warps have issued instruction p by the end of cycle c". Like the integer count encoding it
// names no warp (no symmetry between identical warps), but every rule becomes clauses plus a
// few cardinality constraints, which Z3's SAT core handles natively instead of bit-blasted
// sums and min(). Literals that no schedule can make true (a warp cannot issue instruction p
// before its predecessors, nor more than a unit's capacity per cycle) are the constant false,
// which shrinks the formula without excluding any schedule.
#include <vector>

#include <z3++.h>

#include "common/budget.hpp"
#include "model/warp/warp_model.hpp"

namespace gpuwcrt {

class WarpUnaryEncoding {
public:
    // With a budget, building throws BudgetExhausted once the deadline has passed (a cycle of a
    // large problem alone can take seconds to build, longer than any Z3 timeout would allow).
    WarpUnaryEncoding(z3::context& ctx, const WarpProblem& problem, const Budget* budget = nullptr);

    const WarpProblem& problem() const { return problem_; }
    int length() const { return static_cast<int>(instr_.size()); }
    int cycles() const { return cycles_; }

    // Adds the variables and rules of cycle cycles() + 1 to `s`.
    void add_cycle(z3::solver& s);

    // X(p, c, k); true for p < 0 or k <= 0, false for c <= 0 or k > W.
    z3::expr done(int p, int c, int k) const;

    // One literal per (instruction on `unit`, k): as many are true as `unit` has issued
    // instructions by the end of cycle c. unit < 0: every instruction, whatever its unit.
    z3::expr_vector unit_done(int unit, int c) const;

    z3::expr unfinished_after(int c) const { return !done(length() - 1, c, problem_.warps); }  // makespan > c
    z3::expr finished_by(int c) const { return done(length() - 1, c, problem_.warps); }        // makespan <= c

private:
    int latency_before(int p) const { return p == 0 ? 1 : instr_[static_cast<std::size_t>(p - 1)].latency; }
    z3::expr fresh(const char* what, int c, int a, int b);

    void check_budget() const {
        if (budget_) budget_->check();
    }

    z3::context& ctx_;
    const Budget* budget_;
    WarpProblem problem_;
    std::vector<WarpInstr> instr_;
    std::vector<int> levels_;                            // unit -> number of levels used by it
    std::vector<std::vector<int>> earliest_;             // earliest_[p][k]: first cycle with >= k warps past p
    std::vector<std::vector<std::vector<z3::expr>>> x_;  // x_[c - 1][p][k - 1]
    int cycles_ = 0;
};

}  // namespace gpuwcrt
