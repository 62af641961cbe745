#include "bounds/warp_step.hpp"

#include <algorithm>
#include <stdexcept>

namespace gpuwcrt {

WarpStepper::WarpStepper(const WarpProblem& problem)
    : problem_(problem), instr_(problem.instructions()), slots_(problem.max_latency()) {
    if (instr_.empty()) throw std::invalid_argument("warp program has no instruction");
    if (problem.warps < 1 || problem.warps > 65535) throw std::invalid_argument("warp count out of range");
    int levels = 0;
    for (const auto& i : instr_) levels = std::max(levels, i.level + 1);
    by_unit_level_.assign(problem.machine.units.size(), std::vector<std::vector<int>>(static_cast<std::size_t>(levels)));
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

bool WarpStepper::finished(const WarpState& s) const {
    return s[index(length(), 0)] == problem_.warps;
}

// Per unit: how many warps it must issue when no total issue limit binds.
std::vector<int> WarpStepper::work_conserving_counts_max(const WarpState& s) const {
    std::vector<int> m(problem_.machine.units.size(), 0);
    for (int p = 0; p < length(); ++p) m[static_cast<std::size_t>(instr_[static_cast<std::size_t>(p)].unit)] += ready(s, p);
    for (std::size_t u = 0; u < m.size(); ++u) m[u] = std::min(m[u], problem_.machine.units[u].capacity);
    return m;
}

void WarpStepper::unit_choices(const WarpState& s, int unit, int count, std::vector<WarpIssue>& out) const {
    WarpIssue base(static_cast<std::size_t>(length()), 0);
    int remaining = count;
    for (const auto& pcs : by_unit_level_[static_cast<std::size_t>(unit)]) {
        int total = 0;
        for (int p : pcs) total += ready(s, p);
        if (total <= remaining) {
            for (int p : pcs) base[static_cast<std::size_t>(p)] = static_cast<std::uint16_t>(ready(s, p));
            remaining -= total;
            continue;
        }
        // The boundary level: every split of what is left among its program counters.
        std::function<void(std::size_t, int)> split = [&](std::size_t k, int left) {
            if (k == pcs.size()) {
                if (left == 0) out.push_back(base), guard(out.size());
                return;
            }
            const int p = pcs[k];
            const int hi = std::min(left, ready(s, p));
            for (int take = 0; take <= hi; ++take) {
                base[static_cast<std::size_t>(p)] = static_cast<std::uint16_t>(take);
                split(k + 1, left - take);
            }
            base[static_cast<std::size_t>(p)] = 0;
        };
        split(0, remaining);
        return;
    }
    if (remaining != 0) throw std::logic_error("unit asked to issue more warps than are ready");
    out.push_back(base);
}

std::vector<WarpIssue> WarpStepper::successors(const WarpState& s) const {
    const std::vector<int> m = work_conserving_counts_max(s);
    int total = 0;
    for (int v : m) total += v;
    const auto& limit = problem_.machine.issue_limit;
    const int target = limit ? std::min(*limit, total) : total;

    std::vector<WarpIssue> out;
    std::vector<int> counts(m.size(), 0);
    // Each way of sharing `target` issues among the units (one way when no limit binds).
    std::function<void(std::size_t, int)> share = [&](std::size_t u, int left) {
        if (u == m.size()) {
            if (left != 0) return;
            std::vector<WarpIssue> acc{WarpIssue(static_cast<std::size_t>(length()), 0)};
            for (std::size_t v = 0; v < m.size(); ++v) {
                std::vector<WarpIssue> mine;
                unit_choices(s, static_cast<int>(v), counts[v], mine);
                std::vector<WarpIssue> next;
                guard(acc.size() * mine.size() + out.size());
                next.reserve(acc.size() * mine.size());
                for (const auto& a : acc)
                    for (const auto& b : mine) {
                        WarpIssue x = a;
                        for (std::size_t p = 0; p < x.size(); ++p) x[p] = static_cast<std::uint16_t>(x[p] + b[p]);
                        next.push_back(std::move(x));
                    }
                acc = std::move(next);
            }
            out.insert(out.end(), acc.begin(), acc.end());
            guard(out.size());
            return;
        }
        for (int c = std::min(m[u], left); c >= 0; --c) {
            counts[u] = c;
            share(u + 1, left - c);
        }
    };
    share(0, target);
    return out;
}

WarpIssue WarpStepper::greedy(const WarpState& s, WarpGreedy bias) const {
    std::vector<int> m = work_conserving_counts_max(s);
    if (const auto& limit = problem_.machine.issue_limit) {
        int left = *limit;
        for (int& v : m) { v = std::min(v, left); left -= v; }
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
        for (int w = 1; w < slots_; ++w) n[index(p, w - 1)] = static_cast<std::uint16_t>(n[index(p, w - 1)] + s[index(p, w)]);
        const int issued = x[static_cast<std::size_t>(p)];
        if (issued > ready(s, p)) throw std::logic_error("issue vector issues a warp that is not ready");
        n[index(p, 0)] = static_cast<std::uint16_t>(n[index(p, 0)] + ready(s, p) - issued);
        const std::size_t to = p + 1 == P ? index(P, 0) : index(p + 1, instr_[static_cast<std::size_t>(p)].latency - 1);
        n[to] = static_cast<std::uint16_t>(n[to] + issued);
    }
}

std::vector<WarpIssue> WarpStepper::complete(const std::vector<WarpIssue>& prefix, WarpGreedy bias,
                                             const WarpBudget* budget) const {
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
                                  const WarpBudget* budget) {
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
