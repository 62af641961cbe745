#include "encode/warp/warp_unary_encoding.hpp"

#include <algorithm>
#include <string>

namespace gpuwcrt {

WarpUnaryEncoding::WarpUnaryEncoding(z3::context& ctx, const WarpProblem& problem, const Budget* budget)
    : ctx_(ctx), budget_(budget), problem_(problem), instr_(problem.instructions()) {
    const int W = problem.warps;
    levels_.assign(problem.machine.units.size(), 1);
    for (const auto& i : instr_)
        levels_[static_cast<std::size_t>(i.unit)] = std::max(levels_[static_cast<std::size_t>(i.unit)], i.level + 1);
    // The k-th warp passes p no earlier than the k-th passed p - 1 plus its latency, nor than
    // one cycle after the (k - cap)-th passed p: at most cap warps issue p per cycle.
    earliest_.assign(instr_.size(), std::vector<int>(static_cast<std::size_t>(W) + 1, 0));
    for (int p = 0; p < length(); ++p) {
        check_budget();
        int cap = problem.machine.units.at(static_cast<std::size_t>(instr_[static_cast<std::size_t>(p)].unit)).capacity;
        if (problem.machine.issue_limit) cap = std::min(cap, *problem.machine.issue_limit);
        cap = std::max(cap, 1);
        auto& e = earliest_[static_cast<std::size_t>(p)];
        for (int k = 1; k <= W; ++k) {
            int t = p == 0
                        ? 1
                        : earliest_[static_cast<std::size_t>(p - 1)][static_cast<std::size_t>(k)] + latency_before(p);
            if (k > cap) t = std::max(t, e[static_cast<std::size_t>(k - cap)] + 1);
            e[static_cast<std::size_t>(k)] = t;
        }
    }
}

z3::expr WarpUnaryEncoding::done(int p, int c, int k) const {
    if (p < 0 || k <= 0) return ctx_.bool_val(true);
    if (c <= 0 || k > problem_.warps) return ctx_.bool_val(false);
    return x_[static_cast<std::size_t>(c - 1)][static_cast<std::size_t>(p)][static_cast<std::size_t>(k - 1)];
}

z3::expr_vector WarpUnaryEncoding::unit_done(int unit, int c) const {
    z3::expr_vector out(ctx_);
    for (int p = 0; p < length(); ++p)
        if (unit < 0 || instr_[static_cast<std::size_t>(p)].unit == unit)
            for (int k = 1; k <= problem_.warps; ++k) out.push_back(done(p, c, k));
    return out;
}

z3::expr WarpUnaryEncoding::fresh(const char* what, int c, int a, int b) {
    const std::string name =
        std::string(what) + "_" + std::to_string(c) + "_" + std::to_string(a) + "_" + std::to_string(b);
    return ctx_.bool_const(name.c_str());
}

void WarpUnaryEncoding::add_cycle(z3::solver& s) {
    const int c = ++cycles_, W = problem_.warps, P = length();
    const auto& units = problem_.machine.units;
    std::vector<std::vector<z3::expr>> row(static_cast<std::size_t>(P));
    for (int p = 0; p < P; check_budget(), ++p)
        for (int k = 1; k <= W; ++k)
            row[static_cast<std::size_t>(p)].push_back(
                c < earliest_[static_cast<std::size_t>(p)][static_cast<std::size_t>(k)] ? ctx_.bool_val(false)
                                                                                        : fresh("X", c, p, k));
    x_.push_back(std::move(row));

    // some_waiting[u][a]: a warp whose next instruction is on unit u at a level <= a is ready
    // but not issued in cycle c (monotone in a, so one literal covers every lower level).
    std::vector<std::vector<z3::expr>> some_waiting(units.size());
    for (std::size_t u = 0; u < units.size(); ++u) {
        for (int a = 0; a < levels_[u]; ++a) {
            some_waiting[u].push_back(fresh("V", c, static_cast<int>(u), a));
            if (a > 0) s.add(z3::implies(some_waiting[u][static_cast<std::size_t>(a - 1)], some_waiting[u].back()));
        }
    }
    std::vector<z3::expr_vector> issues;
    for (std::size_t u = 0; u < units.size(); ++u) issues.emplace_back(ctx_);
    z3::expr_vector all_issues(ctx_);

    for (int p = 0; p < P; ++p) {
        const auto& in = instr_[static_cast<std::size_t>(p)];
        const auto u = static_cast<std::size_t>(in.unit);
        const int lat = latency_before(p);
        check_budget();
        for (int k = 1; k <= W; ++k) {
            const z3::expr now = done(p, c, k), before = done(p, c - 1, k), pred = done(p - 1, c - lat, k);
            // Waiting: the k-th warp has passed p - 1 long enough ago but not p.
            if (!pred.is_false() && !now.is_true())
                s.add(z3::implies(pred && !now, some_waiting[u][static_cast<std::size_t>(in.level)]));
            if (now.is_false()) continue;
            if (k > 1) s.add(z3::implies(now, done(p, c, k - 1)));
            s.add(z3::implies(before, now));
            s.add(z3::implies(now, pred));
            z3::expr issue = now;
            if (!before.is_false()) {
                issue = fresh("I", c, p, k);
                s.add(issue == (now && !before));
            }
            if (in.level > 0) s.add(z3::implies(issue, !some_waiting[u][static_cast<std::size_t>(in.level - 1)]));
            issues[u].push_back(issue);
            all_issues.push_back(issue);
        }
    }

    // Capacity, and work conservation: a waiting warp means its unit is full (or, with a total
    // issue limit, that the whole issue slot is).
    const auto at_least = [&](const z3::expr_vector& xs, int bound, const z3::expr& guard) {
        z3::expr_vector terms(ctx_);
        std::vector<int> coeffs;
        for (const auto& x : xs) terms.push_back(x), coeffs.push_back(1);
        terms.push_back(!guard);
        coeffs.push_back(bound);
        s.add(z3::pbge(terms, coeffs.data(), bound));
    };
    const auto& limit = problem_.machine.issue_limit;
    const z3::expr slot_full = limit ? fresh("T", c, 0, 0) : ctx_.bool_val(false);
    if (limit) {
        if (static_cast<int>(all_issues.size()) > *limit) s.add(z3::atmost(all_issues, static_cast<unsigned>(*limit)));
        at_least(all_issues, *limit, slot_full);
    }
    for (std::size_t u = 0; u < units.size(); ++u) {
        const int cap = units[u].capacity;
        if (static_cast<int>(issues[u].size()) > cap) s.add(z3::atmost(issues[u], static_cast<unsigned>(cap)));
        const z3::expr unit_full = fresh("F", c, static_cast<int>(u), 0);
        at_least(issues[u], cap, unit_full);
        s.add(z3::implies(some_waiting[u].back(), unit_full || slot_full));
    }
}

}  // namespace gpuwcrt
