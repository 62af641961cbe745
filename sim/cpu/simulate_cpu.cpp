#include "sim/cpu/simulate_cpu.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <optional>
#include <utility>

#include "model/rounding.hpp"

namespace gpuwcrt {
namespace {

// The run is computed in a time type T: Time itself, or whole multiples of a common unit when
// every instant of the run fits in 64 bits that way (the same run, without a gcd per step).
template <class T>
struct CpuSimJob {
    std::size_t index;  // into CpuSimResult::jobs of its task
    T release, pre_left, suspension, post_left;
    std::optional<T> resume;  // while suspended: when it may run again
    bool pre_done = false;
};

template <class T>
struct CpuSimInput {
    std::vector<T> period, offset;
    std::vector<std::vector<CpuJobTimes>> jobs;  // per task, every job released before the horizon
    T horizon;
};

template <class T>
struct CpuSimRun {
    std::vector<std::deque<CpuSimJob<T>>> pending;  // per task, in release order
    std::vector<std::size_t> released;
    std::vector<T> next;  // per task, its next job's release
    std::vector<T> response, pre;
    std::vector<std::vector<std::optional<T>>> pre_end, end;  // per task, per job released
};

// The tasks whose head jobs run now, ready (not suspended) ones taking cores in order of
// priority, then rank, each the first free core of its affinity.
template <class T>
std::vector<std::size_t> cpu_running(const std::vector<CpuSimTask>& ts, const CpuSimRun<T>& s, const T& now) {
    std::vector<std::size_t> ready;
    for (std::size_t i = 0; i < ts.size(); ++i) {
        if (s.pending[i].empty()) continue;
        const CpuSimJob<T>& j = s.pending[i].front();
        if (!j.resume || *j.resume <= now) ready.push_back(i);
    }
    std::sort(ready.begin(), ready.end(), [&](std::size_t a, std::size_t b) {
        if (ts[a].priority != ts[b].priority) return ts[a].priority > ts[b].priority;
        return ts[a].tie_rank < ts[b].tie_rank;
    });
    std::vector<int> busy;
    std::vector<std::size_t> out;
    for (const std::size_t i : ready)
        for (const int core : ts[i].cores)
            if (std::find(busy.begin(), busy.end(), core) == busy.end()) {
                busy.push_back(core);
                out.push_back(i);
                break;
            }
    return out;
}

// Parts of length 0 and suspensions over at `now`: ended, at `now`.
template <class T>
void cpu_settle(CpuSimRun<T>& s, const T& now) {
    for (std::size_t i = 0; i < s.pending.size(); ++i)
        while (!s.pending[i].empty()) {
            CpuSimJob<T>& j = s.pending[i].front();
            if (!j.pre_done && j.pre_left == 0) {
                j.pre_done = true;
                s.pre[i] = std::max(s.pre[i], T(now - j.release));
                s.pre_end[i][j.index] = now;
                j.resume = now + j.suspension;
            }
            if (!j.pre_done || *j.resume > now || j.post_left != 0) break;
            s.response[i] = std::max(s.response[i], T(now - j.release));
            s.end[i][j.index] = now;
            s.pending[i].pop_front();
        }
}

template <class T>
void cpu_release(const CpuSimInput<T>& in, const std::function<T(const Time&)>& to, CpuSimRun<T>& s, std::size_t i) {
    const CpuJobTimes& jt = in.jobs[i][s.released[i]++];
    s.pending[i].push_back(
        {s.pre_end[i].size(), s.next[i], to(jt.pre), to(jt.suspension), to(jt.post), std::nullopt, false});
    s.pre_end[i].emplace_back();
    s.end[i].emplace_back();
}

template <class T>
CpuSimRun<T> cpu_simulate(const std::vector<CpuSimTask>& ts, const CpuSimInput<T>& in,
                          const std::function<T(const Time&)>& to) {
    const std::size_t n = ts.size();
    CpuSimRun<T> s{std::vector<std::deque<CpuSimJob<T>>>(n),
                   std::vector<std::size_t>(n, 0),
                   in.offset,
                   std::vector<T>(n, T(0)),
                   std::vector<T>(n, T(0)),
                   std::vector<std::vector<std::optional<T>>>(n),
                   std::vector<std::vector<std::optional<T>>>(n)};
    T now(0);
    const T end = in.horizon * 4;
    while (now <= end) {
        for (std::size_t i = 0; i < n; ++i)
            for (; s.next[i] <= now && s.next[i] < in.horizon; s.next[i] += in.period[i]) cpu_release(in, to, s, i);
        cpu_settle(s, now);
        // The next instant anything changes: a release, a resumption, or the running part's end.
        std::optional<T> next;
        const auto sooner = [&](const T& t) {
            if (t > now && (!next || t < *next)) next = t;
        };
        for (std::size_t i = 0; i < n; ++i) {
            if (s.next[i] < in.horizon) sooner(s.next[i]);
            if (!s.pending[i].empty() && s.pending[i].front().resume) sooner(*s.pending[i].front().resume);
        }
        const std::vector<std::size_t> run = cpu_running(ts, s, now);
        for (const std::size_t i : run) {
            const CpuSimJob<T>& j = s.pending[i].front();
            sooner(now + (j.pre_done ? j.post_left : j.pre_left));
        }
        if (!next) break;
        for (const std::size_t i : run) {
            CpuSimJob<T>& j = s.pending[i].front();
            (j.pre_done ? j.post_left : j.pre_left) -= *next - now;
        }
        now = *next;
    }
    return s;
}

// The run in Time; each job's release is filled in by the caller.
template <class T>
CpuSimResult cpu_result(const CpuSimRun<T>& s, const std::function<Time(const T&)>& from) {
    CpuSimResult out;
    out.jobs.resize(s.pre_end.size());
    for (std::size_t i = 0; i < s.pre_end.size(); ++i) {
        out.response.push_back(from(s.response[i]));
        out.pre.push_back(from(s.pre[i]));
        out.unfinished = out.unfinished || !s.pending[i].empty();
        for (std::size_t k = 0; k < s.pre_end[i].size(); ++k) {
            CpuJobRun r{Time(0), std::nullopt, std::nullopt};
            if (s.pre_end[i][k]) r.pre_end = from(*s.pre_end[i][k]);
            if (s.end[i][k]) r.end = from(*s.end[i][k]);
            out.jobs[i].push_back(std::move(r));
        }
    }
    return out;
}

// The least common denominator of every value of the run, if every instant up to 4·horizon is
// then a 64-bit integer with room for the sums of a step.
std::optional<BigInt> cpu_common_unit(const std::vector<CpuSimTask>& ts,
                                      const std::vector<std::vector<CpuJobTimes>>& jobs, const Time& horizon) {
    BigInt unit = 1;
    const auto take = [&](const Time& t) {
        const BigInt& d = denominator_ref(t);
        unit = unit / boost::multiprecision::gcd(unit, d) * d;
    };
    take(horizon);
    for (const CpuSimTask& t : ts) {
        take(t.period);
        take(t.offset);
    }
    Time longest = horizon * 4;
    for (const auto& task : jobs)
        for (const CpuJobTimes& j : task)
            for (const Time* t : {&j.pre, &j.suspension, &j.post}) {
                take(*t);
                if (*t > longest) longest = *t;
            }
    const BigInt room(std::numeric_limits<std::int64_t>::max() / 4);
    if (ceil_of(Time((longest + horizon * 4) * unit)) > room) return std::nullopt;
    return unit;
}

}  // namespace

CpuSimResult simulate_cpu(const std::vector<CpuSimTask>& ts,
                          const std::function<CpuJobTimes(std::size_t, std::int64_t)>& times, const Time& horizon,
                          bool rationals_only) {
    std::vector<std::vector<CpuJobTimes>> jobs(ts.size());
    for (std::size_t i = 0; i < ts.size(); ++i) {
        std::int64_t k = 0;
        for (Time release = ts[i].offset; release < horizon; release += ts[i].period) jobs[i].push_back(times(i, k++));
    }
    CpuSimResult out;
    if (const auto unit = rationals_only ? std::nullopt : cpu_common_unit(ts, jobs, horizon)) {
        const Time u(*unit);
        const std::function<std::int64_t(const Time&)> to = [&](const Time& t) {
            return static_cast<std::int64_t>(numerator_ref(Time(t * u)));
        };
        const std::function<Time(const std::int64_t&)> from = [&](const std::int64_t& x) {
            return Time(BigInt(x)) / u;
        };
        CpuSimInput<std::int64_t> in{{}, {}, {}, to(horizon)};
        for (const CpuSimTask& t : ts) {
            in.period.push_back(to(t.period));
            in.offset.push_back(to(t.offset));
        }
        in.jobs = std::move(jobs);
        out = cpu_result(cpu_simulate(ts, in, to), from);
    } else {
        const std::function<Time(const Time&)> same = [](const Time& t) { return t; };
        CpuSimInput<Time> in{{}, {}, std::move(jobs), horizon};
        for (const CpuSimTask& t : ts) {
            in.period.push_back(t.period);
            in.offset.push_back(t.offset);
        }
        out = cpu_result(cpu_simulate(ts, in, same), same);
    }
    for (std::size_t i = 0; i < ts.size(); ++i) {
        Time release = ts[i].offset;
        for (CpuJobRun& j : out.jobs[i]) {
            j.release = release;
            release += ts[i].period;
        }
    }
    return out;
}

}  // namespace gpuwcrt
