#include "solver/cpu/joint_refutation.hpp"

#include <algorithm>

namespace gpuwcrt {
namespace {

// The period and offset that pace a requirement's target: its task's, or its stream's driver's.
const Arrival& joint_target_arrival(const Workload& w, const Requirement& q) {
    if (q.target == Requirement::Target::cpu_task) return w.cpu.tasks[q.index].arrival;
    const auto d = w.cpu.driver_of(q.index);
    return d ? w.cpu.tasks[*d].arrival : w.streams[q.index].arrival;
}

// Long enough that every open requirement's target has had `jobs` jobs and the last of them its limit.
Time joint_horizon(const Workload& w, const std::vector<bool>& open, std::int64_t jobs) {
    Time h = 0;
    for (std::size_t i = 0; i < w.cpu.requirements.size(); ++i) {
        const Requirement& q = w.cpu.requirements[i];
        if (!open[i] || q.target == Requirement::Target::not_analysed) continue;
        const Arrival& a = joint_target_arrival(w, q);
        h = std::max(h, Time(a.offset + a.period * jobs + q.response_time));
    }
    return h;
}

// Whether putting task i last among its priority can change a run: only a task of the same
// priority that may run on one of its cores is ever ordered against it.
bool joint_tie_matters(const Workload& w, int i) {
    const CpuTask& t = w.cpu.tasks[static_cast<std::size_t>(i)];
    for (std::size_t j = 0; j < w.cpu.tasks.size(); ++j) {
        const CpuTask& u = w.cpu.tasks[j];
        if (static_cast<int>(j) == i || u.priority != t.priority) continue;
        for (const int c : u.cpus)
            if (std::find(t.cpus.begin(), t.cpus.end(), c) != t.cpus.end()) return true;
    }
    return false;
}

std::vector<JointScenario> joint_scenarios(const Workload& w, const std::vector<bool>& open) {
    std::vector<JointScenario> out;
    const auto add = [&](const JointScenario& s) {
        for (const JointScenario& o : out)
            if (o.longest == s.longest && o.last == s.last && o.policy == s.policy) return;
        out.push_back(s);
    };
    for (const bool longest : {true, false}) {
        add({longest, std::nullopt, Policy::most_room});
        for (std::size_t i = 0; i < w.cpu.requirements.size(); ++i)
            if (const Requirement& q = w.cpu.requirements[i];
                open[i] && q.target == Requirement::Target::cpu_task && joint_tie_matters(w, q.index))
                add({longest, q.index, Policy::most_room});
    }
    return out;
}

// The longest response of requirement q's target in `run` among what ended before its horizon.
std::optional<JointRunWitness> joint_longest(const Requirement& q, const JointScenario& sc, const JointRun& run) {
    std::optional<JointRunWitness> best;
    const auto consider = [&](std::size_t k, const Time& release, const Time& end, const Time& gpu) {
        if (end >= run.valid_until || (best && best->response >= end - release)) return;
        best = JointRunWitness{sc,        run.horizon,   run.valid_until,     static_cast<std::int64_t>(k),
                               release,   end - release, end - release - gpu, gpu,
                               run.rounds};
    };
    if (q.target == Requirement::Target::cpu_task) {
        const auto& jobs = run.jobs[q.index];
        for (std::size_t k = 0; k < jobs.size(); ++k)
            if (jobs[k].end)
                consider(k, jobs[k].release, *jobs[k].end,
                         jobs[k].gpu_end ? Time(*jobs[k].gpu_end - *jobs[k].gpu_release) : Time(0));
    } else {
        const auto& frames = run.frames[q.index];
        for (std::size_t k = 0; k < frames.size(); ++k)
            if (frames[k].end) consider(k, frames[k].release, *frames[k].end, *frames[k].end - frames[k].release);
    }
    return best;
}

}  // namespace

std::vector<std::optional<JointRunWitness>> joint_run_witnesses(const Workload& w, const Budget& budget,
                                                                std::vector<bool> open, std::int64_t jobs) {
    std::vector<std::optional<JointRunWitness>> out(w.cpu.requirements.size());
    // Short runs first: a requirement refuted by its first jobs needs no longer one; longer runs
    // only while the last length found a longer response for some open requirement.
    bool grew = true;
    for (std::int64_t n = 1; n <= jobs && grew && !budget.expired(); n = n < jobs ? std::min(2 * n, jobs) : jobs + 1) {
        const Time horizon = joint_horizon(w, open, n);
        if (horizon == 0) break;
        grew = n == 1;
        for (const JointScenario& sc : joint_scenarios(w, open)) {
            if (budget.expired()) break;
            const JointRun run = joint_run(w, sc, horizon);
            if (run.valid_until == 0) continue;
            for (std::size_t q = 0; q < out.size(); ++q) {
                if (!open[q] || w.cpu.requirements[q].target == Requirement::Target::not_analysed) continue;
                auto x = joint_longest(w.cpu.requirements[q], sc, run);
                if (x && (!out[q] || out[q]->response < x->response)) {
                    grew = true;
                    out[q] = std::move(x);
                }
            }
        }
        for (std::size_t q = 0; q < out.size(); ++q)
            if (out[q] && out[q]->response > w.cpu.requirements[q].response_time) open[q] = false;
    }
    for (std::size_t q = 0; q < out.size(); ++q)
        if (out[q]) replay_joint_witness(w, static_cast<int>(q), *out[q]);
    return out;
}

void replay_joint_witness(const Workload& w, int requirement, const JointRunWitness& x) {
    const Requirement& q = w.cpu.requirements.at(requirement);
    const JointRun run = joint_run(w, x.scenario, x.horizon);
    const auto again = joint_longest(q, x.scenario, run);
    if (!again || again->job != x.job || again->response != x.response || again->gpu_part != x.gpu_part)
        throw ReplayMismatch("the run of the CPU tasks and GPU frames for requirement '" + q.name +
                             "' does not reproduce job " + std::to_string(x.job) + "'s response " +
                             exact_string(x.response));
}

std::vector<bool> open_requirements(const std::vector<RequirementAnswer>& answers) {
    std::vector<bool> open(answers.size(), false);
    for (const RequirementAnswer& a : answers) open.at(a.requirement) = a.verdict == Verdict::unknown;
    return open;
}

void absorb_joint_runs(const Workload& w, const std::vector<std::optional<JointRunWitness>>& runs,
                       std::vector<RequirementAnswer>& answers) {
    for (RequirementAnswer& a : answers) {
        const auto& run = runs.at(a.requirement);
        if (!run) continue;
        const Requirement& q = w.cpu.requirements[a.requirement];
        RequirementAnswer from;
        from.lower = run->response;
        from.lower_by = Provenance::cpu_joint_run;
        from.witness = CpuJobProof{a.witness ? a.witness->own : Time(0), a.witness ? a.witness->ahead : Time(0), run};
        const std::string reason = a.unknown_reason;
        meet(a, from, Provenance::cpu_joint_run, "requirement " + q.name);
        settle_requirement(a, q.response_time, reason);
    }
}

}  // namespace gpuwcrt
