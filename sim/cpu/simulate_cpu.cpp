#include "sim/cpu/simulate_cpu.hpp"

#include <algorithm>
#include <deque>
#include <optional>

namespace gpuwcrt {
namespace {

struct CpuSimJob {
    std::size_t index;  // into CpuSimResult::jobs of its task
    Time release, pre_left, suspension, post_left;
    std::optional<Time> resume;  // while suspended: when it may run again
    bool pre_done = false;
};

struct CpuSimState {
    std::vector<std::deque<CpuSimJob>> pending;  // per task, in release order
    std::vector<std::int64_t> released;
    std::vector<Time> next;  // per task, its next job's release
};

// The tasks whose head jobs run now, ready (not suspended) ones taking cores in order of
// priority, then rank, each the first free core of its affinity.
std::vector<std::size_t> cpu_running(const std::vector<CpuSimTask>& ts, const CpuSimState& s, const Time& now) {
    std::vector<std::size_t> ready;
    for (std::size_t i = 0; i < ts.size(); ++i) {
        if (s.pending[i].empty()) continue;
        const CpuSimJob& j = s.pending[i].front();
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
void cpu_settle(std::vector<std::deque<CpuSimJob>>& pending, const Time& now, CpuSimResult& out) {
    for (std::size_t i = 0; i < pending.size(); ++i)
        while (!pending[i].empty()) {
            CpuSimJob& j = pending[i].front();
            if (!j.pre_done && j.pre_left == 0) {
                j.pre_done = true;
                out.pre[i] = std::max(out.pre[i], Time(now - j.release));
                out.jobs[i][j.index].pre_end = now;
                j.resume = now + j.suspension;
            }
            if (!j.pre_done || *j.resume > now || j.post_left != 0) break;
            out.response[i] = std::max(out.response[i], Time(now - j.release));
            out.jobs[i][j.index].end = now;
            pending[i].pop_front();
        }
}

}  // namespace

CpuSimResult simulate_cpu(const std::vector<CpuSimTask>& ts,
                          const std::function<CpuJobTimes(std::size_t, std::int64_t)>& times, const Time& horizon) {
    CpuSimResult out;
    out.response.assign(ts.size(), 0);
    out.pre.assign(ts.size(), 0);
    out.jobs.resize(ts.size());
    CpuSimState s{std::vector<std::deque<CpuSimJob>>(ts.size()), std::vector<std::int64_t>(ts.size(), 0), {}};
    for (const CpuSimTask& t : ts) s.next.push_back(t.offset);
    Time now = 0;
    const Time end = horizon * 4;
    while (now <= end) {
        for (std::size_t i = 0; i < ts.size(); ++i)
            for (; s.next[i] <= now && s.next[i] < horizon; s.next[i] += ts[i].period) {
                const CpuJobTimes jt = times(i, s.released[i]++);
                s.pending[i].push_back(
                    {out.jobs[i].size(), s.next[i], jt.pre, jt.suspension, jt.post, std::nullopt, false});
                out.jobs[i].push_back({s.next[i], std::nullopt, std::nullopt});
            }
        cpu_settle(s.pending, now, out);
        // The next instant anything changes: a release, a resumption, or the running part's end.
        std::optional<Time> next;
        const auto sooner = [&](const Time& t) {
            if (t > now && (!next || t < *next)) next = t;
        };
        for (std::size_t i = 0; i < ts.size(); ++i) {
            if (s.next[i] < horizon) sooner(s.next[i]);
            if (!s.pending[i].empty() && s.pending[i].front().resume) sooner(*s.pending[i].front().resume);
        }
        const std::vector<std::size_t> run = cpu_running(ts, s, now);
        for (const std::size_t i : run) {
            const CpuSimJob& j = s.pending[i].front();
            sooner(now + (j.pre_done ? j.post_left : j.pre_left));
        }
        if (!next) break;
        for (const std::size_t i : run) {
            CpuSimJob& j = s.pending[i].front();
            (j.pre_done ? j.post_left : j.pre_left) -= *next - now;
        }
        now = *next;
    }
    for (const auto& p : s.pending) out.unfinished = out.unfinished || !p.empty();
    return out;
}

}  // namespace gpuwcrt
