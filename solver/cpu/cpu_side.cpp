#include "solver/cpu/cpu_side.hpp"

#include <algorithm>
#include <cctype>

#include "model/cpu/requirement_target.hpp"
#include "solver/frames/all_time.hpp"

namespace gpuwcrt {
namespace {

// The latest issue of a stream's last operation after its frame's release: operations without
// `issue` follow their predecessor, and the host issues a stream's calls in order; none when
// some operation waits for the idle stream (its issue depends on the GPU itself).
std::optional<Time> cpu_last_issue_after_release(const Workload& w, int stream) {
    Time latest = 0;
    for (const int op : w.stream_ops(stream)) {
        const IssueSpec& is = w.ops[op].issue;
        if (is.kind == IssueSpec::Kind::after_stream_idle) return std::nullopt;
        if (is.kind == IssueSpec::Kind::at) latest = std::max(latest, is.at.hi);
    }
    return latest;
}

// The shortest a frame of stream s can take: its operations run one after another in stream
// order, each at least its shortest block time (or copy duration), whatever else runs.
Time cpu_least_frame_time(const Workload& w, int s) {
    Time least = 0;
    for (const int op : w.stream_ops(s)) least += w.ops[op].time.lo;
    return least;
}

std::vector<CpuRtaTask> cpu_rta_tasks(const Workload& w, const std::vector<std::optional<Time>>& gpu) {
    std::vector<CpuRtaTask> out;
    for (const CpuTask& t : w.cpu.tasks) {
        CpuRtaTask r{t.cpus, t.priority, t.arrival.period, t.execution.hi, t.after_gpu.hi, t.gpu.has_value(), {}};
        if (t.gpu) {
            r.suspension = gpu[*t.gpu];
            r.least_suspension = cpu_least_frame_time(w, *t.gpu);
        }
        out.push_back(r);
    }
    return out;
}

// Task i's bound reads the tasks of equal or higher priority allowed on one of its cores (their
// executions, suspensions and, for the jitter-based argument, their own bounds): true for each
// task none of whose transitive such tasks, itself included, suspends for the GPU.
std::vector<bool> cpu_tasks_free_of_gpu(const Workload& w) {
    const std::vector<CpuTask>& tasks = w.cpu.tasks;
    const auto share_a_core = [](const CpuTask& a, const CpuTask& b) {
        return std::any_of(a.cpus.begin(), a.cpus.end(),
                           [&](int c) { return std::find(b.cpus.begin(), b.cpus.end(), c) != b.cpus.end(); });
    };
    std::vector<bool> free(tasks.size());
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        std::vector<bool> seen(tasks.size(), false);
        std::vector<std::size_t> todo{i};
        seen[i] = true;
        bool gpu = false;
        while (!todo.empty() && !gpu) {
            const CpuTask& t = tasks[todo.back()];
            todo.pop_back();
            gpu = t.gpu.has_value();
            for (std::size_t j = 0; j < tasks.size(); ++j)
                if (!seen[j] && tasks[j].priority >= t.priority && share_a_core(t, tasks[j])) {
                    seen[j] = true;
                    todo.push_back(j);
                }
        }
        free[i] = !gpu;
    }
    return free;
}

// The lower bound of CpuJobProof: the jobs ahead of task i's job when all are released at 0 —
// strictly higher priorities preempt it, equal ones may be queued before it — counting only tasks
// that never suspend (a suspended job lets it run) and are pinned to task i's core, itself pinned
// (a job allowed on another core may run there instead). Synchronous releases need every offset 0.
CpuJobProof cpu_job_proof(const Workload& w, int i) {
    const CpuTask& t = w.cpu.tasks[i];
    CpuJobProof p{t.execution.hi + t.after_gpu.hi, 0, std::nullopt};
    bool synchronous = true;
    Time ahead = 0;
    for (std::size_t j = 0; j < w.cpu.tasks.size(); ++j) {
        const CpuTask& o = w.cpu.tasks[j];
        if (std::find(o.cpus.begin(), o.cpus.end(), t.cpus[0]) == o.cpus.end()) continue;
        synchronous = synchronous && o.arrival.offset == 0;
        const bool pinned_together = t.cpus.size() == 1 && o.cpus.size() == 1;
        if (static_cast<int>(j) != i && pinned_together && o.priority >= t.priority && !o.gpu) ahead += o.execution.hi;
    }
    if (synchronous) p.ahead = ahead;
    return p;
}

std::string lowercase(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// The longest name of a task, a stream or a left-out task that `text` contains, ignoring case.
std::string longest_name_within(const Workload& w, const std::string& text) {
    std::string named;
    const std::string ltext = lowercase(text);
    const auto consider = [&](const std::string& n) {
        if (n.size() > named.size() && ltext.find(lowercase(n)) != std::string::npos) named = n;
    };
    for (const CpuTask& t : w.cpu.tasks) consider(t.name);
    for (const Stream& s : w.streams) consider(s.name);
    for (const Requirement& q : w.cpu.requirements)
        if (q.target == Requirement::Target::not_analysed) consider(q.left_out);
    return named;
}

// The stream a requirement's target releases: its `gpu`, or for a task the workload leaves out
// the longest stream name within the task's (the import names an offloading task after it).
std::string requirement_stream(const Workload& w, const Requirement& q) {
    if (q.target == Requirement::Target::cpu_task) {
        const auto& gpu = w.cpu.tasks[q.index].gpu;
        return gpu ? w.streams[*gpu].name : std::string();
    }
    if (q.target == Requirement::Target::stream) return w.streams[q.index].name;
    std::string named;
    const std::string task = lowercase(q.left_out);
    for (const Stream& s : w.streams)
        if (s.name.size() > named.size() && task.find(lowercase(s.name)) != std::string::npos) named = s.name;
    return named;
}

// Whether a requirement's name names its target although it contains another's name: each of
// its words but the generic ones (deadline, task, …) is within the target's name, and they are
// more than that other name (the mapped WATERS model's "Deadline_Task_Lane_Detection" on
// PRE_Lane_detection_gpu_POST contains the stream name "Detection").
bool requirement_names_target(const std::string& requirement, const std::string& target, const std::string& other) {
    static const std::vector<std::string> generic{"deadline", "task", "requirement", "req", "response", "time"};
    std::vector<std::string> words;
    std::string word;
    for (const char c : lowercase(requirement) + "_") {
        if (std::isalnum(static_cast<unsigned char>(c))) {
            word += c;
            continue;
        }
        if (!word.empty() && std::find(generic.begin(), generic.end(), word) == generic.end()) words.push_back(word);
        word.clear();
    }
    std::string joined;
    for (const std::string& x : words) joined += (joined.empty() ? "" : "_") + x;
    const std::string t = lowercase(target);
    return !words.empty() && joined != lowercase(other) &&
           std::all_of(words.begin(), words.end(),
                       [&](const std::string& x) { return t.find(x) != std::string::npos; });
}

}  // namespace

std::vector<std::optional<Time>> all_time_frame_bounds(const Workload& w, const Budget& budget) {
    std::vector<std::string> why;
    return all_time_frame_bounds_saying_why(w, budget, why);
}

std::vector<std::optional<Time>> all_time_frame_bounds_saying_why(const Workload& w, const Budget& budget,
                                                                  std::vector<std::string>& why) {
    why.assign(w.streams.size(), "");
    std::vector<std::optional<Time>> out(w.streams.size());
    // Each round takes the GPU's upper bounds alone: the search of replayed frames would
    // change none of them.
    AllTimeOptions o;
    o.settled = [](const WcrtAnswer&) { return true; };
    const AllTimeResult r = all_time_bounds(w, budget, o);
    for (std::size_t s = 0; s < w.streams.size(); ++s) {
        const std::vector<int> ops = w.stream_ops(static_cast<int>(s));
        if (ops.empty()) continue;
        const auto issue = cpu_last_issue_after_release(w, static_cast<int>(s));
        const WcrtAnswer& answer = r.answers.at(ops.back());
        if (issue && answer.upper) out[s] = *issue + *answer.upper;
        else why[s] = !issue ? "an operation waits for the idle stream" : answer.unknown_reason;
    }
    return out;
}

// From below: each driven stream's jitter starts at its task's pre-GPU part alone, the least it
// can be. Each round takes the GPU's bounds for the current windows and the CPU's bounds for
// those suspensions, and widens every window the CPU bound does not fit. It stops when every
// pre-GPU bound fits its window: then the windows and the suspensions bound each other (the
// first instant either bound failed would be an instant before which both held, where the
// analysis of the other side already holds: docs/theory/semantics.md §11).
CpuSideResult cpu_side_fixed_point(const Workload& w, const GpuFrameBounds& gpu, const Budget& budget, int max_rounds,
                                   const CpuRtaMutation& mutation) {
    CpuSideResult out{w, {}, {}, false, cpu_tasks_free_of_gpu(w), 0, "", std::nullopt};
    bool analysed = !w.cpu.tasks.empty();
    for (const Requirement& q : w.cpu.requirements) analysed = analysed || q.target == Requirement::Target::stream;
    // Without a fixed point only the bounds that hold whatever the GPU does: those of the analysis
    // told that no frame has a bound (an interferer that waits for one counted by its bursts).
    const auto give_up = [&](std::string why) {
        out.reason = std::move(why);
        out.tasks = cpu_response_bounds(cpu_rta_tasks(w, std::vector<std::optional<Time>>(w.streams.size())), mutation);
        return out;
    };
    if (!analysed) return give_up("nothing analysed: every requirement is on a task the workload leaves out");
    for (; out.rounds < max_rounds; ++out.rounds) {
        if (budget.expired()) return give_up("out of time");
        out.gpu = gpu(out.analysed, budget);
        out.tasks = cpu_response_bounds(cpu_rta_tasks(out.analysed, out.gpu), mutation);
        bool fits = true;
        for (std::size_t i = 0; i < w.cpu.tasks.size(); ++i) {
            const CpuTask& t = w.cpu.tasks[i];
            if (!t.gpu) continue;
            const auto& pre = out.tasks[i].pre;
            if (!pre) {
                out.unbounded_stream = *t.gpu;
                return give_up("task '" + t.name + "' has no bound: its release of stream '" + w.streams[*t.gpu].name +
                               "' is not bounded");
            }
            Arrival& a = out.analysed.streams[*t.gpu].arrival;
            if (*pre - t.execution.lo <= a.jitter) continue;
            a = driven_arrival(t, *pre);
            fits = false;
        }
        if (fits) {
            out.proven = true;
            ++out.rounds;
            return out;
        }
    }
    return give_up("no fixed point of the CPU and GPU bounds within " + std::to_string(max_rounds) + " rounds");
}

std::vector<std::string> cpu_side_assumptions(const Workload& w) {
    if (!has_multi_core_affinity(w.cpu.tasks)) return {};
    return {
        "a task allowed on several cores waits only while every core of its affinity runs a job of equal or "
        "higher priority (a scheduler work-conserving over affinities); its bound is the least over those "
        "cores of the bound counting every task allowed on the core (docs/decisions/0034-cpu-affinity.md)"};
}

std::vector<RequirementAnswer> requirement_answers(const Workload& w, const CpuSideResult& r) {
    std::vector<RequirementAnswer> out;
    for (std::size_t q = 0; q < w.cpu.requirements.size(); ++q) {
        const Requirement& req = w.cpu.requirements[q];
        RequirementAnswer a;
        a.requirement = static_cast<int>(q);
        if (req.target == Requirement::Target::cpu_task) {
            const CpuTask& t = w.cpu.tasks[req.index];
            a.witness = cpu_job_proof(w, req.index);
            a.lower = a.witness->own + a.witness->ahead;
            a.lower_by = Provenance::cpu_execution;
            const CpuRtaBound b =
                static_cast<std::size_t>(req.index) < r.tasks.size() ? r.tasks[req.index] : CpuRtaBound{};
            if (b.response) {
                a.upper = b.response;
                a.upper_by = b.by == CpuArgument::jitter ? Provenance::cpu_jitter : Provenance::cpu_oblivious;
                a.gpu_part = t.gpu ? *r.gpu[*t.gpu] : Time(0);
                a.cpu_part = *b.response - *a.gpu_part;
            }
        } else if (req.target == Requirement::Target::not_analysed) {
            settle_requirement(a, req.response_time, "task not analysed: the workload leaves it out");
            out.push_back(std::move(a));
            continue;
        } else if (r.proven && r.gpu[req.index]) {
            a.upper = r.gpu[req.index];
            a.gpu_part = a.upper;
            a.cpu_part = Time(0);
        }
        const bool task_free = req.target == Requirement::Target::cpu_task && (r.gpu_free[req.index] || a.upper);
        const std::string why = !r.proven && !task_free ? r.reason
                                : a.upper               ? "the bound exceeds the limit; no run found past it"
                                                        : "no bound";
        settle_requirement(a, req.response_time, why);
        out.push_back(std::move(a));
    }
    return out;
}

std::vector<std::string> requirement_warnings(const Workload& w) {
    std::vector<std::string> out;
    for (const Requirement& q : w.cpu.requirements) {
        if (q.target == Requirement::Target::cpu_task) {
            const CpuTask& t = w.cpu.tasks[q.index];
            if (q.response_time > t.arrival.period)
                out.push_back(q.where.str() + ": requirement '" + q.name + "' allows " + human_string(q.response_time) +
                              ", more than task '" + t.name + "''s period " + human_string(t.arrival.period));
        }
        // The longest task or stream name inside the requirement's name: one that is neither its
        // target nor the target's stream suggests the targets were swapped.
        const std::string named = longest_name_within(w, q.name);
        const std::string& target = requirement_target(w, q);
        if (!named.empty() && lowercase(named) != lowercase(target) &&
            lowercase(named) != lowercase(requirement_stream(w, q)) && !requirement_names_target(q.name, target, named))
            out.push_back(q.where.str() + ": requirement '" + q.name + "' is on '" + target + "' but its name names '" +
                          named + "'");
    }
    return out;
}

}  // namespace gpuwcrt
