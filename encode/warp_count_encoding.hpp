#pragma once
// SMT encoding of the warp model (SPEC §8) over counts: D[p][c] = number of warps that have
// issued instruction p by the end of cycle c. Counting instead of naming warps removes the
// symmetry between identical warps entirely (W! permutations collapse to one model), which is
// the strongest form of symmetry breaking. Cycles are added one at a time so a search can grow
// the horizon incrementally; every cycle's rules hold for any prefix of any schedule.
#include <vector>

#include <z3++.h>

#include "model/warp_model.hpp"

namespace gpuwcrt {

class WarpCountEncoding {
public:
    WarpCountEncoding(z3::context& ctx, const WarpProblem& problem);

    const WarpProblem& problem() const { return problem_; }
    int length() const { return static_cast<int>(instr_.size()); }
    int cycles() const { return cycles_; }

    // Adds the constraints of cycle cycles() + 1 to `s`.
    void add_cycle(z3::solver& s);

    // D[p][c]; D[p][c] = 0 for c <= 0, and "instruction -1" is issued by all warps at cycle 0.
    z3::expr done(int p, int c) const;
    z3::expr issued(int p, int c) const;  // warps issuing p in cycle c
    z3::expr ready(int p, int c) const;   // warps whose next instruction p may issue in cycle c

    // Makespan >= c + 1 exactly when a legal c-cycle prefix leaves a warp unfinished.
    z3::expr unfinished_after(int c) const;
    z3::expr finished_by(int c) const;  // makespan <= c

    // The rules of one cycle (SPEC §8), each a conjunction.
    z3::expr program_order_latency(int c) const;
    z3::expr unit_capacity(int c) const;
    z3::expr work_conservation(int c) const;
    z3::expr fairness(int c) const;

private:
    z3::expr sum(const std::vector<int>& pcs, bool ready_not_issued, int c) const;
    z3::expr unit_issued(int unit, int c) const;
    z3::expr unit_ready(int unit, int c) const;
    z3::expr min(const z3::expr& a, const z3::expr& b) const { return z3::ite(a < b, a, b); }

    z3::context& ctx_;
    WarpProblem problem_;
    std::vector<WarpInstr> instr_;
    std::vector<std::vector<int>> by_unit_;                   // unit -> pcs
    std::vector<std::vector<std::vector<int>>> by_unit_level_;  // unit -> level -> pcs
    std::vector<std::vector<z3::expr>> d_;                    // d_[c - 1][p]
    int cycles_ = 0;
};

}  // namespace gpuwcrt
