#include "encode/warp_count_encoding.hpp"

#include <string>

namespace gpuwcrt {

WarpCountEncoding::WarpCountEncoding(z3::context& ctx, const WarpProblem& problem)
    : ctx_(ctx), problem_(problem), instr_(problem.instructions()) {
    const std::size_t units = problem.machine.units.size();
    int levels = 0;
    for (const auto& i : instr_) levels = std::max(levels, i.level + 1);
    by_unit_.assign(units, {});
    by_unit_level_.assign(units, std::vector<std::vector<int>>(static_cast<std::size_t>(levels)));
    for (int p = 0; p < length(); ++p) {
        const auto& i = instr_[static_cast<std::size_t>(p)];
        by_unit_[static_cast<std::size_t>(i.unit)].push_back(p);
        by_unit_level_[static_cast<std::size_t>(i.unit)][static_cast<std::size_t>(i.level)].push_back(p);
    }
}

z3::expr WarpCountEncoding::done(int p, int c) const {
    if (p < 0) return ctx_.int_val(problem_.warps);
    if (c <= 0) return ctx_.int_val(0);
    return d_[static_cast<std::size_t>(c - 1)][static_cast<std::size_t>(p)];
}

z3::expr WarpCountEncoding::issued(int p, int c) const { return done(p, c) - done(p, c - 1); }

z3::expr WarpCountEncoding::ready(int p, int c) const {
    const int lat = p == 0 ? 1 : instr_[static_cast<std::size_t>(p - 1)].latency;
    return done(p - 1, c - lat) - done(p, c - 1);
}

z3::expr WarpCountEncoding::sum(const std::vector<int>& pcs, bool ready_not_issued, int c) const {
    z3::expr s = ctx_.int_val(0);
    for (int p : pcs) s = s + (ready_not_issued ? ready(p, c) : issued(p, c));
    return s;
}

z3::expr WarpCountEncoding::unit_issued(int unit, int c) const {
    return sum(by_unit_[static_cast<std::size_t>(unit)], false, c);
}

z3::expr WarpCountEncoding::unit_ready(int unit, int c) const {
    return sum(by_unit_[static_cast<std::size_t>(unit)], true, c);
}

z3::expr WarpCountEncoding::program_order_latency(int c) const {
    z3::expr_vector parts(ctx_);
    for (int p = 0; p < length(); ++p) {
        const int lat = p == 0 ? 1 : instr_[static_cast<std::size_t>(p - 1)].latency;
        parts.push_back(done(p, c - 1) <= done(p, c));
        parts.push_back(done(p, c) <= done(p - 1, c - lat));
    }
    return z3::mk_and(parts);
}

z3::expr WarpCountEncoding::unit_capacity(int c) const {
    z3::expr_vector parts(ctx_);
    z3::expr total = ctx_.int_val(0);
    for (std::size_t u = 0; u < by_unit_.size(); ++u) {
        parts.push_back(unit_issued(static_cast<int>(u), c) <= problem_.machine.units[u].capacity);
        total = total + unit_issued(static_cast<int>(u), c);
    }
    if (problem_.machine.issue_limit) parts.push_back(total <= *problem_.machine.issue_limit);
    return z3::mk_and(parts);
}

z3::expr WarpCountEncoding::work_conservation(int c) const {
    z3::expr_vector parts(ctx_);
    z3::expr issued_total = ctx_.int_val(0), possible = ctx_.int_val(0);
    for (std::size_t u = 0; u < by_unit_.size(); ++u) {
        const int unit = static_cast<int>(u);
        const z3::expr can = min(ctx_.int_val(problem_.machine.units[u].capacity), unit_ready(unit, c));
        if (!problem_.machine.issue_limit) parts.push_back(unit_issued(unit, c) == can);
        issued_total = issued_total + unit_issued(unit, c);
        possible = possible + can;
    }
    // With a total issue limit, only the total is forced; which units use it is free.
    if (problem_.machine.issue_limit)
        parts.push_back(issued_total == min(ctx_.int_val(*problem_.machine.issue_limit), possible));
    return z3::mk_and(parts);
}

z3::expr WarpCountEncoding::fairness(int c) const {
    // Among warps of one unit, those at lower levels go first: the issued count over levels
    // <= a is as large as it can be, min(unit's issued count, ready count over levels <= a).
    z3::expr_vector parts(ctx_);
    for (std::size_t u = 0; u < by_unit_level_.size(); ++u) {
        const z3::expr all = unit_issued(static_cast<int>(u), c);
        std::vector<int> prefix;
        const auto& levels = by_unit_level_[u];
        for (std::size_t a = 0; a + 1 < levels.size(); ++a) {
            if (levels[a].empty()) continue;
            prefix.insert(prefix.end(), levels[a].begin(), levels[a].end());
            if (prefix.size() == by_unit_[u].size()) break;
            parts.push_back(sum(prefix, false, c) == min(all, sum(prefix, true, c)));
        }
    }
    return z3::mk_and(parts);
}

void WarpCountEncoding::add_cycle(z3::solver& s) {
    const int c = ++cycles_;
    std::vector<z3::expr> row;
    for (int p = 0; p < length(); ++p) {
        row.push_back(ctx_.int_const(("D_" + std::to_string(p) + "_" + std::to_string(c)).c_str()));
        // Explicit bounds let the QF_FD tactic bit-blast the counts.
        s.add(row.back() >= 0);
        s.add(row.back() <= problem_.warps);
    }
    d_.push_back(row);
    s.add(program_order_latency(c));
    s.add(unit_capacity(c));
    s.add(work_conservation(c));
    s.add(fairness(c));
}

z3::expr WarpCountEncoding::unfinished_after(int c) const { return done(length() - 1, c) < problem_.warps; }

z3::expr WarpCountEncoding::finished_by(int c) const { return done(length() - 1, c) == problem_.warps; }

}  // namespace gpuwcrt
