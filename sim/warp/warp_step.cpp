#include "sim/warp/warp_step.hpp"

#include <algorithm>
#include <stdexcept>

namespace gpuwcrt {

WarpStepper::WarpStepper(const WarpProblem& problem)
    : problem_(problem), instr_(problem.instructions()), slots_(problem.max_latency()) {
    if (instr_.empty()) throw std::invalid_argument("warp program has no instruction");
    if (problem.warps < 1 || problem.warps > 65535) throw std::invalid_argument("warp count out of range");
    int levels = 0;
    for (const auto& i : instr_) levels = std::max(levels, i.level + 1);
    by_unit_level_.assign(problem.machine.units.size(),
                          std::vector<std::vector<int>>(static_cast<std::size_t>(levels)));
    for (int p = 0; p < length(); ++p) {
        const auto& i = instr_[static_cast<std::size_t>(p)];
        by_unit_level_[static_cast<std::size_t>(i.unit)][static_cast<std::size_t>(i.level)].push_back(p);
    }
}

WarpState WarpStepper::initial() const {
    WarpState s(index(length(), 0) + 1, 0);
    s[index(0, 0)] = static_cast<std::uint16_t>(problem_.warps);
    return s;
}

bool WarpStepper::finished(const WarpState& s) const { return s[index(length(), 0)] == problem_.warps; }

// Per unit: how many warps it must issue when no total issue limit binds.
std::vector<int> WarpStepper::work_conserving_counts_max(const WarpState& s) const {
    std::vector<int> m(problem_.machine.units.size(), 0);
    for (int p = 0; p < length(); ++p)
        m[static_cast<std::size_t>(instr_[static_cast<std::size_t>(p)].unit)] += ready(s, p);
    for (std::size_t u = 0; u < m.size(); ++u) m[u] = std::min(m[u], problem_.machine.units[u].capacity);
    return m;
}

void WarpStepper::unit_choices(Enumeration& e, std::size_t u) const {
    if (u == e.counts.size()) {
        e.visit(e.x);
        guard(++e.listed);
        return;
    }
    int remaining = e.counts[u];
    const auto& levels = by_unit_level_[u];
    std::size_t l = 0;
    for (; l < levels.size(); ++l) {
        int total = 0;
        for (int p : levels[l]) total += ready(e.s, p);
        if (total > remaining) break;
        for (int p : levels[l]) e.x[static_cast<std::size_t>(p)] = static_cast<std::uint16_t>(ready(e.s, p));
        remaining -= total;
    }
    if (l < levels.size()) split(e, u, levels[l], 0, remaining);  // the boundary level
    else if (remaining != 0) throw std::logic_error("unit asked to issue more warps than are ready");
    else unit_choices(e, u + 1);
    for (std::size_t k = 0; k < l && k < levels.size(); ++k)
        for (int p : levels[k]) e.x[static_cast<std::size_t>(p)] = 0;
}

void WarpStepper::split(Enumeration& e, std::size_t u, const std::vector<int>& pcs, std::size_t k, int left) const {
    if (k == pcs.size()) {
        if (left == 0) unit_choices(e, u + 1);
        return;
    }
    const auto p = static_cast<std::size_t>(pcs[k]);
    const int hi = std::min(left, ready(e.s, pcs[k]));
    for (int take = 0; take <= hi; ++take) {
        e.x[p] = static_cast<std::uint16_t>(take);
        split(e, u, pcs, k + 1, left - take);
    }
    e.x[p] = 0;
}

void WarpStepper::share(Enumeration& e, std::size_t u, int left) const {
    if (u == e.most.size()) {
        if (left == 0) unit_choices(e, 0);
        return;
    }
    for (int c = std::min(e.most[u], left); c >= 0; --c) {
        e.counts[u] = c;
        share(e, u + 1, left - c);
    }
}

void WarpStepper::for_each_successor(const WarpState& s, const std::function<void(const WarpIssue&)>& visit) const {
    Enumeration e{s, visit, work_conserving_counts_max(s), {}, WarpIssue(static_cast<std::size_t>(length()), 0)};
    int total = 0;
    for (int v : e.most) total += v;
    const auto& limit = problem_.machine.issue_limit;
    e.counts.assign(e.most.size(), 0);
    share(e, 0, limit ? std::min(*limit, total) : total);
}

std::vector<WarpIssue> WarpStepper::successors(const WarpState& s) const {
    std::vector<WarpIssue> out;
    for_each_successor(s, [&](const WarpIssue& x) { out.push_back(x); });
    return out;
}

WarpIssue WarpStepper::greedy(const WarpState& s, WarpGreedy bias) const {
    std::vector<int> m = work_conserving_counts_max(s);
    if (const auto& limit = problem_.machine.issue_limit) {
        int left = *limit;
        for (int& v : m) {
            v = std::min(v, left);
            left -= v;
        }
    }
    WarpIssue x(static_cast<std::size_t>(length()), 0);
    for (std::size_t u = 0; u < m.size(); ++u) {
        int left = m[u];
        for (const auto& pcs : by_unit_level_[u]) {
            if (left == 0) break;  // the rest stays 0; a copy per level made long programs slow
            for (std::size_t i = 0; i < pcs.size(); ++i) {
                const int p = pcs[bias == WarpGreedy::ahead_first ? pcs.size() - 1 - i : i];
                const int take = std::min(left, ready(s, p));
                x[static_cast<std::size_t>(p)] = static_cast<std::uint16_t>(take);
                left -= take;
            }
        }
    }
    return x;
}

WarpState WarpStepper::apply(const WarpState& s, const WarpIssue& x) const {
    WarpState n;
    apply_into(s, x, n);
    return n;
}

void WarpStepper::apply_into(const WarpState& s, const WarpIssue& x, WarpState& n) const {
    n.assign(s.size(), 0);
    const int P = length();
    n[index(P, 0)] = s[index(P, 0)];
    for (int p = 0; p < P; ++p) {
        for (int w = 1; w < slots_; ++w)
            n[index(p, w - 1)] = static_cast<std::uint16_t>(n[index(p, w - 1)] + s[index(p, w)]);
        const int issued = x[static_cast<std::size_t>(p)];
        if (issued > ready(s, p)) throw std::logic_error("issue vector issues a warp that is not ready");
        n[index(p, 0)] = static_cast<std::uint16_t>(n[index(p, 0)] + ready(s, p) - issued);
        const std::size_t to = p + 1 == P ? index(P, 0) : index(p + 1, instr_[static_cast<std::size_t>(p)].latency - 1);
        n[to] = static_cast<std::uint16_t>(n[to] + issued);
    }
}

std::vector<WarpIssue> WarpStepper::complete(const std::vector<WarpIssue>& prefix, WarpGreedy bias,
                                             const Budget* budget) const {
    std::vector<WarpIssue> out = prefix;
    WarpState s = initial();
    for (const auto& x : prefix) s = apply(s, x);
    while (!finished(s)) {
        out.push_back(greedy(s, bias));
        s = apply(s, out.back());
        if (budget && out.size() % 1024 == 0) budget->check(out.size() * (out.back().size() * 2 + 40));
    }
    return out;
}

WarpSchedule schedule_from_issues(const WarpProblem& problem, const std::vector<WarpIssue>& issues,
                                  const Budget* budget) {
    const auto instr = problem.instructions();
    const int W = problem.warps;
    std::vector<int> pc(static_cast<std::size_t>(W), 0), ready_at(static_cast<std::size_t>(W), 1);
    WarpSchedule out;
    out.rows.assign(static_cast<std::size_t>(W), std::string(issues.size(), '.'));
    for (std::size_t c = 0; c < issues.size(); ++c) {
        const int cycle = static_cast<int>(c) + 1;
        if (budget && c % 64 == 0) budget->check();
        for (std::size_t p = 0; p < issues[c].size(); ++p) {
            int need = issues[c][p];
            for (int w = 0; w < W && need > 0; ++w) {
                const auto wi = static_cast<std::size_t>(w);
                if (pc[wi] != static_cast<int>(p) || ready_at[wi] > cycle) continue;
                out.rows[wi][c] = problem.machine.classes[static_cast<std::size_t>(instr[p].cls)].letter;
                ++pc[wi];
                ready_at[wi] = cycle + instr[p].latency;
                --need;
            }
            if (need > 0) throw std::logic_error("issue vector names more warps than are ready");
        }
    }
    return out;
}

}  // namespace gpuwcrt
