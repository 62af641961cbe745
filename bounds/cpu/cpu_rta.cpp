#include "bounds/cpu/cpu_rta.hpp"

#include <algorithm>
#include <functional>

#include "model/rounding.hpp"

namespace gpuwcrt {
namespace {

bool cpu_allowed_on(const CpuRtaTask& t, int core) {
    return std::find(t.cores.begin(), t.cores.end(), core) != t.cores.end();
}

// The tasks that delay task i on core `core`: allowed there, priority at least its own, not itself.
bool cpu_interferes(const std::vector<CpuRtaTask>& ts, std::size_t j, std::size_t i, int core,
                    const CpuRtaMutation& m) {
    if (j == i || !cpu_allowed_on(ts[j], core)) return false;
    if (m.count_only_pinned && ts[j].cores.size() != 1) return false;
    return m.drop_equal_priorities ? ts[j].priority > ts[i].priority : ts[j].priority >= ts[i].priority;
}

// Whether every task allowed on `core` runs there alone: then the core is a uniprocessor and its
// critical instant is the suspension-oblivious argument's.
bool cpu_uniprocessor(const std::vector<CpuRtaTask>& ts, int core) {
    for (const CpuRtaTask& t : ts)
        if (cpu_allowed_on(t, core) && t.cores.size() != 1) return false;
    return true;
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

// A task that does not suspend, when a job may still run at its successor's release (Lehoczky's
// busy period, RTSS 1990): a level busy period lasts at most the least L = ⌈L/T⌉·C + I(L); its
// job q (from 0) ends within the least t = (q + 1)·C + I(t) of the period's start, so responds
// within t − q·T. None when the interference's long-run rate (`rate`, none: unbounded) and the
// task's own C/T reach 1, or L passes 100 periods (the analysis's work): below 1 every term grows by at most its
// rate per unit of time plus a constant, so the least L exists.
CpuPair cpu_busy_period(const CpuRtaTask& task, const CpuRtaMutation& m,
                        const std::function<std::optional<Time>(const Time&)>& interference,
                        const std::optional<Time>& rate) {
    const Time c = cpu_execution(task);
    if (!rate || *rate + c / task.period >= 1) return {};
    const Time limit = task.period * 100;
    const auto length = cpu_least_fixed_point(c, limit, [&](const Time& x) -> std::optional<Time> {
        const auto i = interference(x);
        if (!i) return std::nullopt;
        return *i + Time(ceil_of(x / task.period) - 1) * c;
    });
    if (!length) return {};
    CpuPair out{Time(0), Time(0)};
    const BigInt jobs = m.first_job_only ? BigInt(1) : ceil_of(*length / task.period);
    for (BigInt q = 0; q < jobs; ++q) {
        const Time before(q);
        const auto end = cpu_least_fixed_point(before * c + c, *length, interference);
        const auto pre = cpu_least_fixed_point(before * c + task.pre, *length, interference);
        if (!end || !pre) return {};
        out.response = std::max(*out.response, Time(*end - before * task.period));
        out.pre = std::max(*out.pre, Time(*pre - before * task.period));
    }
    return out;
}

// Task i's bounds for an interference function and its long-run rate: its whole response
// (execution and its own suspension) and its pre-suspension part, the latter only where the
// former exists.
CpuPair cpu_solve(const std::vector<CpuRtaTask>& ts, std::size_t i, const CpuRtaMutation& m,
                  const std::function<std::optional<Time>(const Time&)>& interference,
                  const std::optional<Time>& rate) {
    const auto own = cpu_own_suspension(ts[i], m);
    if (!own) return {};
    CpuPair out;
    out.response = cpu_least_fixed_point(cpu_execution(ts[i]) + *own, ts[i].period, interference);
    if (out.response) out.pre = cpu_least_fixed_point(ts[i].pre, ts[i].period, interference);
    else if (!ts[i].suspends) out = cpu_busy_period(ts[i], m, interference, rate);
    return out;
}

// Suspension-oblivious: each interferer's jobs are periodic with demand C_j + S_j.
CpuPair cpu_oblivious(const std::vector<CpuRtaTask>& ts, std::size_t i, int core, const CpuRtaMutation& m) {
    std::optional<Time> rate = Time(0);
    for (std::size_t j = 0; j < ts.size() && rate; ++j) {
        if (!cpu_interferes(ts, j, i, core, m)) continue;
        const auto demand = cpu_oblivious_demand(ts[j]);
        rate = demand ? std::optional<Time>(*rate + *demand / ts[j].period) : std::nullopt;
    }
    const auto interference = [&](const Time& t) -> std::optional<Time> {
        Time sum = 0;
        for (std::size_t j = 0; j < ts.size(); ++j) {
            if (!cpu_interferes(ts, j, i, core, m)) continue;
            const auto demand = cpu_oblivious_demand(ts[j]);
            if (!demand) return std::nullopt;
            sum += Time(ceil_of(t / ts[j].period)) * *demand;
        }
        return sum;
    };
    return cpu_solve(ts, i, m, interference, rate);
}

std::optional<Time> cpu_smaller(const std::optional<Time>& a, const std::optional<Time>& b) {
    if (!a) return b;
    if (!b) return a;
    return *a < *b ? a : b;
}

// The most a task whose every suspension lasts at least S executes in any window of length t,
// whatever its releases and responses (none: it does not suspend, or S = 0). Its jobs run in
// order, so its execution comes in bursts — a job's second part, then the next job's first —
// of at most C = pre + post, each separated from the next by a suspension of at least S. With m
// bursts meeting the window, m − 1 whole suspensions lie inside it: the work is at most
// min(m·C, t − (m − 1)·S), which over m is largest at m = ⌊(t + S)/(C + S)⌋ or the next.
std::optional<Time> cpu_burst_work(const CpuRtaTask& task, const Time& t, const CpuRtaMutation& m) {
    const Time& s = task.least_suspension;
    if (!task.suspends || s <= 0) return std::nullopt;
    const Time c = cpu_execution(task);
    const Time bursts(floor_of((t + s) / (c + s)));
    if (m.bursts_whole_only) return bursts * c;
    return std::max(Time(bursts * c), Time(t - bursts * s));
}

// Jitter-based: each interferer's jobs are periodic with demand C_j and release jitter R_j - C_j;
// a suspending one's work at most its bursts' (cpu_burst_work), whichever is smaller.
CpuPair cpu_jitter(const std::vector<CpuRtaTask>& ts, std::size_t i, int core,
                   const std::vector<std::optional<Time>>& r, const CpuRtaMutation& m) {
    std::optional<Time> rate = Time(0);
    for (std::size_t j = 0; j < ts.size() && rate; ++j) {
        if (!cpu_interferes(ts, j, i, core, m)) continue;
        const Time c = cpu_execution(ts[j]);
        std::optional<Time> own;
        if (r[j]) own = c / ts[j].period;
        if (ts[j].suspends && ts[j].least_suspension > 0)
            own = cpu_smaller(own, Time(c / (c + ts[j].least_suspension)));
        rate = own ? std::optional<Time>(*rate + *own) : std::nullopt;
    }
    return cpu_solve(
        ts, i, m,
        [&](const Time& t) -> std::optional<Time> {
            Time sum = 0;
            for (std::size_t j = 0; j < ts.size(); ++j) {
                if (!cpu_interferes(ts, j, i, core, m)) continue;
                const Time c = cpu_execution(ts[j]);
                std::optional<Time> work;
                if (r[j]) work = Time(ceil_of((t + *r[j] - c) / ts[j].period)) * c;
                work = cpu_smaller(work, cpu_burst_work(ts[j], t, m));
                if (!work) return std::nullopt;
                sum += *work;
            }
            return sum;
        },
        rate);
}

// The mutation's combination over cores: the larger, none when any is none.
std::optional<Time> cpu_larger(const std::optional<Time>& a, const std::optional<Time>& b) {
    if (!a || !b) return std::nullopt;
    return *a < *b ? b : a;
}

// Per task and per core of its affinity, the suspension-oblivious bounds (none off a uniprocessor).
std::vector<std::vector<CpuPair>> cpu_oblivious_per_core(const std::vector<CpuRtaTask>& ts, const CpuRtaMutation& m) {
    std::vector<std::vector<CpuPair>> out(ts.size());
    for (std::size_t i = 0; i < ts.size(); ++i)
        for (const int core : ts[i].cores)
            out[i].push_back(cpu_uniprocessor(ts, core) ? cpu_oblivious(ts, i, core, m) : CpuPair{});
    return out;
}

// Task i's bounds: per core the smaller argument, over its cores the least (every core's bound
// holds, docs/decisions/0034-cpu-affinity.md).
CpuRtaBound cpu_task_bound(const std::vector<CpuRtaTask>& ts, std::size_t i, const std::vector<CpuPair>& oblivious,
                           const std::vector<std::optional<Time>>& r, const CpuRtaMutation& m) {
    const auto combine = [&](const std::optional<Time>& x, const std::optional<Time>& y) {
        return m.max_over_cores ? cpu_larger(x, y) : cpu_smaller(x, y);
    };
    CpuRtaBound b;
    for (std::size_t k = 0; k < ts[i].cores.size(); ++k) {
        const CpuPair jitter = cpu_jitter(ts, i, ts[i].cores[k], r, m);
        const auto response = cpu_smaller(jitter.response, oblivious[k].response);
        const auto pre = cpu_smaller(jitter.pre, oblivious[k].pre);
        const auto combined = k == 0 ? response : combine(b.response, response);
        b.pre = k == 0 ? pre : combine(b.pre, pre);
        if (combined && combined != b.response)
            b.by = oblivious[k].response == response ? CpuArgument::oblivious : CpuArgument::jitter;
        b.response = combined;
    }
    if (!b.response) b.by = CpuArgument::none;
    return b;
}

}  // namespace

// The jitter-based bounds depend on the interferers' bounds, and with equal priorities on each
// other: all tasks are iterated together from below (each R_j from its own execution and
// suspension, below any bound), every step monotone, so the iteration rises to the least fixed
// point. A task whose bound passes its period drops out (none), and with it the jitter-based
// bounds of the tasks it delays; the suspension-oblivious ones need no other task's bound.
std::vector<CpuRtaBound> cpu_response_bounds(const std::vector<CpuRtaTask>& ts, const CpuRtaMutation& m) {
    const std::vector<std::vector<CpuPair>> oblivious = cpu_oblivious_per_core(ts, m);
    std::vector<std::optional<Time>> r(ts.size());
    for (std::size_t i = 0; i < ts.size(); ++i) {
        const auto own = cpu_own_suspension(ts[i], m);
        if (own) r[i] = cpu_execution(ts[i]) + *own;
    }
    std::vector<CpuRtaBound> out(ts.size());
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t i = 0; i < ts.size(); ++i) {
            const CpuRtaBound b = cpu_task_bound(ts, i, oblivious[i], r, m);
            changed = changed || b.response != r[i];
            r[i] = b.response;
            out[i] = b;
        }
    }
    return out;
}

}  // namespace gpuwcrt
