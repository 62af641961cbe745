#include "bounds/cpu/cpu_rta.hpp"

#include <functional>

#include "model/rounding.hpp"

namespace gpuwcrt {
namespace {

// The tasks that delay task i: on its core, priority at least its own, not itself.
bool cpu_interferes(const std::vector<CpuRtaTask>& ts, std::size_t j, std::size_t i, const CpuRtaMutation& m) {
    if (j == i || ts[j].core != ts[i].core) return false;
    return m.drop_equal_priorities ? ts[j].priority > ts[i].priority : ts[j].priority >= ts[i].priority;
}

// The least t with t = base + interference(t), from below; none once t exceeds `limit`.
// interference is non-decreasing in t, so the iteration rises to the least fixed point.
std::optional<Time> cpu_least_fixed_point(const Time& base, const Time& limit,
                                          const std::function<std::optional<Time>(const Time&)>& interference) {
    Time t = base;
    while (t <= limit) {
        const auto i = interference(t);
        if (!i) return std::nullopt;
        const Time next = base + *i;
        if (next == t) return t;
        t = next;
    }
    return std::nullopt;
}

Time cpu_execution(const CpuRtaTask& t) { return t.pre + t.post; }

// The whole demand of a job, its suspension counted as execution; none when unbounded.
std::optional<Time> cpu_oblivious_demand(const CpuRtaTask& t) {
    if (!t.suspends) return cpu_execution(t);
    if (!t.suspension) return std::nullopt;
    return cpu_execution(t) + *t.suspension;
}

std::optional<Time> cpu_own_suspension(const CpuRtaTask& t, const CpuRtaMutation& m) {
    if (!t.suspends || m.drop_own_suspension) return Time(0);
    return t.suspension;
}

struct CpuPair {
    std::optional<Time> pre, response;
};

// Task i's bounds for an interference function: its whole response (execution and its own
// suspension) and its pre-suspension part, the latter only where the former exists.
CpuPair cpu_solve(const std::vector<CpuRtaTask>& ts, std::size_t i, const CpuRtaMutation& m,
                  const std::function<std::optional<Time>(const Time&)>& interference) {
    const auto own = cpu_own_suspension(ts[i], m);
    if (!own) return {};
    CpuPair out;
    out.response = cpu_least_fixed_point(cpu_execution(ts[i]) + *own, ts[i].period, interference);
    if (out.response) out.pre = cpu_least_fixed_point(ts[i].pre, ts[i].period, interference);
    return out;
}

// Suspension-oblivious: each interferer's jobs are periodic with demand C_j + S_j.
CpuPair cpu_oblivious(const std::vector<CpuRtaTask>& ts, std::size_t i, const CpuRtaMutation& m) {
    return cpu_solve(ts, i, m, [&](const Time& t) -> std::optional<Time> {
        Time sum = 0;
        for (std::size_t j = 0; j < ts.size(); ++j) {
            if (!cpu_interferes(ts, j, i, m)) continue;
            const auto demand = cpu_oblivious_demand(ts[j]);
            if (!demand) return std::nullopt;
            sum += Time(ceil_of(t / ts[j].period)) * *demand;
        }
        return sum;
    });
}

// Jitter-based: each interferer's jobs are periodic with demand C_j and release jitter R_j - C_j.
CpuPair cpu_jitter(const std::vector<CpuRtaTask>& ts, std::size_t i, const std::vector<std::optional<Time>>& r,
                   const CpuRtaMutation& m) {
    return cpu_solve(ts, i, m, [&](const Time& t) -> std::optional<Time> {
        Time sum = 0;
        for (std::size_t j = 0; j < ts.size(); ++j) {
            if (!cpu_interferes(ts, j, i, m)) continue;
            if (!r[j]) return std::nullopt;
            const Time c = cpu_execution(ts[j]);
            sum += Time(ceil_of((t + *r[j] - c) / ts[j].period)) * c;
        }
        return sum;
    });
}

std::optional<Time> cpu_smaller(const std::optional<Time>& a, const std::optional<Time>& b) {
    if (!a) return b;
    if (!b) return a;
    return *a < *b ? a : b;
}

}  // namespace

// The jitter-based bounds depend on the interferers' bounds, and with equal priorities on each
// other: all tasks are iterated together from below (each R_j from its own execution and
// suspension, below any bound), every step monotone, so the iteration rises to the least fixed
// point. A task whose bound passes its period drops out (none), and with it the jitter-based
// bounds of the tasks it delays; the suspension-oblivious ones need no other task's bound.
std::vector<CpuRtaBound> cpu_response_bounds(const std::vector<CpuRtaTask>& ts, const CpuRtaMutation& m) {
    std::vector<CpuPair> oblivious(ts.size());
    for (std::size_t i = 0; i < ts.size(); ++i) oblivious[i] = cpu_oblivious(ts, i, m);
    std::vector<std::optional<Time>> r(ts.size());
    for (std::size_t i = 0; i < ts.size(); ++i) {
        const auto own = cpu_own_suspension(ts[i], m);
        if (own) r[i] = cpu_execution(ts[i]) + *own;
    }
    std::vector<CpuRtaBound> out(ts.size());
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t i = 0; i < ts.size(); ++i) {
            const CpuPair jitter = cpu_jitter(ts, i, r, m);
            CpuRtaBound b;
            b.response = cpu_smaller(jitter.response, oblivious[i].response);
            b.pre = cpu_smaller(jitter.pre, oblivious[i].pre);
            if (b.response)
                b.by = oblivious[i].response && *oblivious[i].response == *b.response ? CpuArgument::oblivious
                                                                                      : CpuArgument::jitter;
            changed = changed || b.response != r[i];
            r[i] = b.response;
            out[i] = b;
        }
    }
    return out;
}

}  // namespace gpuwcrt
