#include "bounds/warp/warp_bounds.hpp"

#include <algorithm>
#include <optional>

namespace gpuwcrt {
namespace {

long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

// Instructions of one warp's program on unit u.
long long per_warp_on(const std::vector<WarpInstr>& program, int u) {
    return std::count_if(program.begin(), program.end(), [&](const WarpInstr& i) { return i.unit == u; });
}

// Lemma 1 (every makespan): each cycle up to the makespan advances some warp by one solo
// cycle, and W warps have W x solo_cycles of them.
WarpProvenBound solo_sum_bound(const WarpProblem& p, long long solo) {
    return {static_cast<long long>(p.warps) * solo, "lemma 1: W x one warp's solo makespan"};
}

// Lemma 2 (idle cycles of a unit U): when there is no issue limit, every instruction on
// another unit has latency 1 and is directly followed by an instruction on U, and every other
// unit has at least U's capacity, then U idles in at most (solo makespan - U-instructions of
// one warp) cycles up to the makespan; it is busy in at most W x its instructions per warp.
std::optional<WarpProvenBound> idle_cycle_bound(const WarpProblem& p, const std::vector<WarpInstr>& program, int u,
                                                long long solo) {
    if (p.machine.issue_limit) return std::nullopt;
    const int cap_u = p.machine.units[static_cast<std::size_t>(u)].capacity;
    for (std::size_t v = 0; v < p.machine.units.size(); ++v)
        if (static_cast<int>(v) != u && p.machine.units[v].capacity < cap_u) return std::nullopt;
    for (std::size_t k = 0; k < program.size(); ++k) {
        if (program[k].unit == u) continue;
        if (program[k].latency != 1 || k + 1 == program.size() || program[k + 1].unit != u) return std::nullopt;
    }
    const long long n_u = per_warp_on(program, u);
    if (n_u == 0) return std::nullopt;
    return WarpProvenBound{static_cast<long long>(p.warps) * n_u + solo - n_u,
                           "lemma 2: idle cycles of unit " + p.machine.units[static_cast<std::size_t>(u)].name +
                               " <= those of a warp running alone"};
}

}  // namespace

std::vector<long long> solo_issue_cycles(const std::vector<WarpInstr>& program) {
    std::vector<long long> s(program.size());
    long long at = 1;
    for (std::size_t k = 0; k < program.size(); ++k) {
        s[k] = at;
        at += program[k].latency;
    }
    return s;
}

long long solo_cycles(const std::vector<WarpInstr>& program) {
    return program.empty() ? 0 : solo_issue_cycles(program).back();
}

WarpProvenBound worst_case_upper_bound(const WarpProblem& p) {
    const auto program = p.instructions();
    const long long solo = solo_cycles(program);
    WarpProvenBound best = solo_sum_bound(p, solo);
    for (int u = 0; u < static_cast<int>(p.machine.units.size()); ++u)
        if (const auto b = idle_cycle_bound(p, program, u, solo); b && b->cycles < best.cycles) best = *b;
    return best;
}

WarpProvenBound best_case_lower_bound(const WarpProblem& p) {
    const auto program = p.instructions();
    const auto s = solo_issue_cycles(program);
    const long long solo = solo_cycles(program), W = p.warps;
    // Lemma 3: no warp issues faster than alone.
    WarpProvenBound out{solo, "lemma 3: one warp's solo makespan"};
    // Lemma 4: a unit's W x n_u issues start no earlier than its first instruction alone would,
    // take ceil(W n_u / capacity) cycles, and the warp of the last one still has the rest of
    // its program to issue.
    for (int u = 0; u < static_cast<int>(p.machine.units.size()); ++u) {
        const long long n_u = per_warp_on(program, u);
        if (n_u == 0) continue;
        long long first = -1, tail = -1;
        for (std::size_t k = 0; k < program.size(); ++k) {
            if (program[k].unit != u) continue;
            if (first < 0) first = s[k];
            const long long rest = s.back() - s[k];
            if (tail < 0 || rest < tail) tail = rest;
        }
        const long long b = first - 1 + ceil_div(W * n_u, p.machine.units[static_cast<std::size_t>(u)].capacity) + tail;
        if (b > out.cycles)
            out = {b, "lemma 4: unit " + p.machine.units[static_cast<std::size_t>(u)].name + " at full capacity"};
    }
    // Lemma 5: at most issue_limit instructions per cycle.
    if (const auto& limit = p.machine.issue_limit) {
        const long long b = ceil_div(W * static_cast<long long>(program.size()), *limit);
        if (b > out.cycles) out = {b, "lemma 5: the issue limit at full use"};
    }
    return out;
}

}  // namespace gpuwcrt
