#include "sim/warp/warp_schedule_check.hpp"

#include <algorithm>

namespace gpuwcrt {

std::string warp_schedule_violation(const WarpProblem& problem, const WarpSchedule& s, const Budget* budget) {
    const auto instr = problem.instructions();
    const auto& m = problem.machine;
    const int P = static_cast<int>(instr.size());
    if (static_cast<int>(s.rows.size()) != problem.warps) return "schedule has the wrong number of warps";
    const std::size_t T = s.rows.empty() ? 0 : s.rows[0].size();
    std::vector<int> pc(s.rows.size(), 0), ready_at(s.rows.size(), 1);
    for (std::size_t c = 0; c < T; ++c) {
        const int cycle = static_cast<int>(c) + 1;
        if (budget && c % 64 == 0) budget->check();
        const std::string at = "cycle " + std::to_string(cycle) + ": ";
        std::vector<int> ready(m.units.size(), 0), issued(m.units.size(), 0);
        std::vector<int> lowest_waiting(m.units.size(), 1 << 30), highest_issued(m.units.size(), -1);
        for (std::size_t w = 0; w < s.rows.size(); ++w) {
            if (s.rows[w].size() != T) return "rows of different lengths";
            const bool is_ready = pc[w] < P && ready_at[w] <= cycle;
            const char letter = s.rows[w][c];
            if (letter != '.' && !is_ready) return at + "warp " + std::to_string(w + 1) + " issues while not ready";
            if (!is_ready) continue;
            const WarpInstr& i = instr[static_cast<std::size_t>(pc[w])];
            const auto u = static_cast<std::size_t>(i.unit);
            ++ready[u];
            if (letter == '.') {
                lowest_waiting[u] = std::min(lowest_waiting[u], i.level);
                continue;
            }
            if (letter != m.classes[static_cast<std::size_t>(i.cls)].letter)
                return at + "warp " + std::to_string(w + 1) + " issues " + letter + " out of program order";
            ++issued[u];
            highest_issued[u] = std::max(highest_issued[u], i.level);
            ++pc[w];
            ready_at[w] = cycle + i.latency;
        }
        int total = 0, possible = 0;
        for (std::size_t u = 0; u < m.units.size(); ++u) {
            const int can = std::min(m.units[u].capacity, ready[u]);
            if (issued[u] > m.units[u].capacity) return at + "unit " + m.units[u].name + " over capacity";
            if (!m.issue_limit && issued[u] != can)
                return at + "unit " + m.units[u].name + " idles while a warp is ready (not work-conserving)";
            if (highest_issued[u] > lowest_waiting[u])
                return at + "unit " + m.units[u].name + " serves a later sub-block before an earlier one";
            total += issued[u];
            possible += can;
        }
        if (m.issue_limit && total != std::min(*m.issue_limit, possible))
            return at + "total issue count breaks the issue limit or work conservation";
    }
    for (std::size_t w = 0; w < pc.size(); ++w)
        if (pc[w] != P) return "warp " + std::to_string(w + 1) + " does not finish";
    return {};
}

}  // namespace gpuwcrt
