#include "sim/cpu/joint_run.hpp"

#include "model/frames/unroll.hpp"
#include "sim/cpu/simulate_cpu.hpp"
#include "sim/simulate.hpp"

namespace gpuwcrt {
namespace {

using JointSuspensions = std::vector<std::vector<Time>>;  // per task, per job: its wait for its frame

// The CPU side with the suspensions `used`: every task on its cores at once (a task allowed on
// several cores shares them with the tasks pinned there).
void joint_cpu_round(const Workload& w, const JointScenario& sc, const Time& horizon, const JointSuspensions& used,
                     JointRun& run) {
    run.jobs.assign(w.cpu.tasks.size(), {});
    std::vector<CpuSimTask> tasks;
    for (std::size_t i = 0; i < w.cpu.tasks.size(); ++i) {
        const CpuTask& t = w.cpu.tasks[i];
        const bool last = sc.last == static_cast<int>(i);
        tasks.push_back({t.priority, t.arrival.period, t.arrival.offset,
                         last ? static_cast<int>(w.cpu.tasks.size()) : static_cast<int>(i), t.cpus});
    }
    const auto times = [&](std::size_t i, std::int64_t k) {
        const CpuTask& t = w.cpu.tasks[i];
        const auto end = [&](const Interval<Time>& x) { return sc.longest ? x.hi : x.lo; };
        const std::size_t job = static_cast<std::size_t>(k);
        // A job the last GPU run did not reach waits as long as the last one it reached: a guess,
        // which only saves rounds (what counts is checked where the runs part).
        const Time wait = job < used[i].size() ? used[i][job] : used[i].empty() ? Time(0) : used[i].back();
        return CpuJobTimes{end(t.execution), t.gpu ? wait : Time(0), end(t.after_gpu)};
    };
    const CpuSimResult r = simulate_cpu(tasks, times, horizon);
    for (std::size_t i = 0; i < w.cpu.tasks.size(); ++i)
        for (const CpuJobRun& j : r.jobs[i])
            run.jobs[i].push_back({j.release, w.cpu.tasks[i].gpu ? j.pre_end : std::nullopt, std::nullopt, j.end});
}

// The frames the run releases: a driven stream's when its jobs' first parts end, another's at
// the start of each window opening before the horizon, a stream that runs once at 0.
std::vector<std::vector<Time>> joint_releases(const Workload& w, const Time& horizon, const JointRun& run) {
    std::vector<std::vector<Time>> out(w.streams.size());
    for (std::size_t s = 0; s < w.streams.size(); ++s) {
        const Arrival& a = w.streams[s].arrival;
        if (const auto d = w.cpu.driver_of(static_cast<int>(s))) {
            for (const JointJob& j : run.jobs[*d])
                if (j.gpu_release) out[s].push_back(*j.gpu_release);
        } else if (!a.repeats()) {
            out[s].push_back(0);
        } else {
            for (std::int64_t k = 0; a.release(k).lo < horizon; ++k) out[s].push_back(a.release(k).lo);
        }
    }
    return out;
}

// The GPU run with the releases of the CPU run; returns the suspensions it gives the jobs.
JointSuspensions joint_gpu_round(const Workload& w, const JointScenario& sc, const Time& horizon, JointRun& run) {
    const std::vector<std::vector<Time>> releases = joint_releases(w, horizon, run);
    std::vector<std::int64_t> counts;
    for (const auto& r : releases) counts.push_back(static_cast<std::int64_t>(r.size()));
    const auto window = [&](int s, std::int64_t k) {
        const Time& t = releases[static_cast<std::size_t>(s)][static_cast<std::size_t>(k)];
        return TimeRange{t, t};
    };
    const Unrolled u = unroll_windows(w, counts, window, {w.source, 0, 0});
    Scenario scenario;
    scenario.policy = sc.policy;
    if (!sc.longest) scenario.block_time = [&u](int op, std::int64_t) { return u.workload.ops[op].time.lo; };
    const Schedule schedule = simulate(u.workload, scenario, BlockRecord::dropped);
    run.frames.assign(w.streams.size(), {});
    for (std::size_t s = 0; s < w.streams.size(); ++s)
        for (const Time& r : releases[s]) run.frames[s].push_back({r, std::nullopt});
    for (std::size_t i = 0; i < u.origin.size(); ++i) {
        const FrameOrigin& f = u.origin[i];
        const int stream = w.ops[f.op].stream;
        if (w.stream_ops(stream).back() != f.op) continue;
        run.frames[stream][static_cast<std::size_t>(f.frame)].end = schedule.ops[i].finish;
    }
    JointSuspensions out(w.cpu.tasks.size());
    for (std::size_t i = 0; i < w.cpu.tasks.size(); ++i) {
        if (!w.cpu.tasks[i].gpu) continue;
        std::size_t k = 0;
        for (JointJob& j : run.jobs[i]) {
            if (!j.gpu_release) break;
            j.gpu_end = run.frames[*w.cpu.tasks[i].gpu][k++].end;
            out[i].push_back(*j.gpu_end - *j.gpu_release);
        }
    }
    return out;
}

// The first instant at which the CPU run, which used the waits `used`, and the GPU run, which
// gave `given`, part: a job whose two waits differ resumes at its frame's release plus the
// shorter one in one of the runs and is still suspended in the other. None: they agree.
std::optional<Time> joint_parting(const JointRun& run, const JointSuspensions& used, const JointSuspensions& given) {
    std::optional<Time> first;
    for (std::size_t i = 0; i < given.size(); ++i)
        for (std::size_t k = 0; k < given[i].size(); ++k) {
            const Time was = k < used[i].size() ? used[i][k] : Time(0);
            if (given[i][k] == was) continue;
            const Time at = *run.jobs[i][k].gpu_release + std::min(was, given[i][k]);
            if (!first || at < *first) first = at;
        }
    return first;
}

}  // namespace

std::string JointScenario::describe(const Workload& w) const {
    std::string s = std::string("every execution and block time at its ") + (longest ? "upper" : "lower") + " end";
    if (last) s += ", task '" + w.cpu.tasks.at(*last).name + "' last among its priority";
    return s + ", placement " + policy_name(policy);
}

JointRun joint_run(const Workload& w, const JointScenario& scenario, const Time& horizon, int max_rounds) {
    JointRun run, best;
    run.horizon = best.horizon = horizon;
    best.valid_until = 0;
    JointSuspensions used(w.cpu.tasks.size());
    for (run.rounds = 1; run.rounds <= max_rounds; ++run.rounds) {
        joint_cpu_round(w, scenario, horizon, used, run);
        JointSuspensions given = joint_gpu_round(w, scenario, horizon, run);
        const std::optional<Time> parting = joint_parting(run, used, given);
        run.valid_until = parting ? std::min(*parting, horizon) : horizon;
        run.consistent = !parting;
        if (run.valid_until == horizon) return run;  // what parts after the horizon is not asked for
        if (run.valid_until > best.valid_until) best = run;
        used = std::move(given);
    }
    return best;
}

}  // namespace gpuwcrt
