#include "model/io/cpu/read_cpu.hpp"

#include <algorithm>

#include "model/io/frames/read_frames.hpp"
#include "model/name_policy.hpp"

namespace gpuwcrt {
namespace {

void read_cpus(const TomlReader& r, std::unordered_map<std::string, int>& names, Workload& w) {
    const TomlArray* arr = array_of_tables(r, "cpu");
    if (!arr) return;
    for (const TomlNode& node : *arr) {
        const TomlTable& t = *node.as_table();
        r.only_keys(t, {"name", "scheduler"}, "[[cpu]]");
        CpuCore c;
        c.where = r.where(t);
        c.name = r.name(r.required(t, "name", "[[cpu]]"), "name", "cpu name");
        const TomlNode& s = r.required(t, "scheduler", "[[cpu]]");
        if (r.string(s, "scheduler") != "fixed_priority_preemptive")
            r.fail(s, "'scheduler' must be \"fixed_priority_preemptive\" (the only CPU scheduler analysed)");
        if (auto [it, fresh] = names.try_emplace(c.name, static_cast<int>(w.cpu.cpus.size())); !fresh)
            r.fail(t, "cpu '" + c.name + "' is declared twice (first at " + w.cpu.cpus[it->second].where.str() + ")");
        w.cpu.cpus.push_back(std::move(c));
    }
}

Interval<Time> cpu_time(const TomlReader& r, const TomlNode& n, const char* key) {
    const Interval<Time> x = r.time_range(n, key);
    if (x.lo < 0) r.fail(n, std::string("'") + key + "' must be >= 0 (got " + human_string(x.lo) + ")");
    return x;
}

// The stream a task drives: declared, not the NULL stream, running once in the file (its
// releases are the task's), driven by no other task.
int driven_stream(const TomlReader& r, const TomlNode& n, const std::unordered_map<std::string, int>& streams,
                  const Workload& w, const std::string& task) {
    const std::string name = r.name(n, "gpu", "gpu stream");
    const auto it = streams.find(name);
    if (it == streams.end()) r.fail(n, "unknown stream '" + name + "' (declare it with [[stream]])");
    const Stream& s = w.streams[it->second];
    if (s.is_null) r.fail(n, "stream '" + name + "' is the NULL stream; a task releases the frames of a stream");
    if (s.arrival.repeats())
        r.fail(n, "stream '" + name + "' has its own period (at " + s.where.str() + "); task '" + task +
                      "' releases its frames: remove 'period', 'min_interarrival', 'offset' and 'jitter' there");
    if (const auto other = w.cpu.driver_of(it->second))
        r.fail(n, "stream '" + name + "' is already released by task '" + w.cpu.tasks[*other].name + "'");
    return it->second;
}

int affinity_core(const TomlReader& r, const TomlNode& n, const std::unordered_map<std::string, int>& cpus) {
    const auto core = cpus.find(r.string(n, "cpu"));
    if (core == cpus.end()) r.fail(n, "unknown cpu '" + r.string(n, "cpu") + "' (declare it with [[cpu]])");
    return core->second;
}

// `cpu`: one core's name, or the names of the cores the task may run on (its affinity).
std::vector<int> task_affinity(const TomlReader& r, const TomlNode& n,
                               const std::unordered_map<std::string, int>& cpus) {
    if (!n.as_array()) return {affinity_core(r, n, cpus)};
    std::vector<int> out;
    for (const TomlNode& item : r.array(n, "cpu")) {
        const int core = affinity_core(r, item, cpus);
        if (std::find(out.begin(), out.end(), core) != out.end())
            r.fail(item, "cpu '" + r.string(item, "cpu") + "' is named twice in 'cpu'");
        out.push_back(core);
    }
    if (out.empty()) r.fail(n, "'cpu' names no core: give the core, or the cores the task may run on");
    return out;
}

CpuTask read_task(const TomlReader& r, const TomlTable& t, const std::unordered_map<std::string, int>& cpus,
                  const std::unordered_map<std::string, int>& streams, const Workload& w) {
    r.only_keys(t, {"name", "cpu", "priority", "period", "min_interarrival", "offset", "execution", "gpu", "after_gpu"},
                "[[cpu_task]]");
    CpuTask task;
    task.where = r.where(t);
    task.name = r.name(r.required(t, "name", "[[cpu_task]]"), "name", "task name");
    task.cpus = task_affinity(r, r.required(t, "cpu", "[[cpu_task]]"), cpus);
    task.priority = r.integer(r.required(t, "priority", "[[cpu_task]]"), "priority");
    task.arrival = read_arrival(r, t);
    if (!task.arrival.repeats()) r.fail(t, "[[cpu_task]] '" + task.name + "' needs 'period' or 'min_interarrival'");
    task.execution = cpu_time(r, r.required(t, "execution", "[[cpu_task]]"), "execution");
    if (const TomlNode* g = t.get("gpu")) task.gpu = driven_stream(r, *g, streams, w, task.name);
    if (const TomlNode* a = t.get("after_gpu")) {
        if (!task.gpu) r.fail(*a, "'after_gpu' needs 'gpu': the part after the wait for the GPU frame");
        task.after_gpu = cpu_time(r, *a, "after_gpu");
    }
    if (task.execution.hi + task.after_gpu.hi <= 0)
        r.fail(t, "[[cpu_task]] '" + task.name + "' executes for no time: 'execution' must be > 0");
    return task;
}

void read_tasks(const TomlReader& r, const std::unordered_map<std::string, int>& cpus,
                const std::unordered_map<std::string, int>& streams, std::unordered_map<std::string, int>& names,
                Workload& w) {
    const TomlArray* arr = array_of_tables(r, "cpu_task");
    if (!arr) return;
    for (const TomlNode& node : *arr) {
        CpuTask task = read_task(r, *node.as_table(), cpus, streams, w);
        if (auto [it, fresh] = names.try_emplace(task.name, static_cast<int>(w.cpu.tasks.size())); !fresh)
            throw InputError(task.where, "task '" + task.name + "' is declared twice (first at " +
                                             w.cpu.tasks[it->second].where.str() + ")");
        if (task.gpu) w.streams[*task.gpu].arrival = driven_arrival(task, task.execution.hi);
        w.cpu.tasks.push_back(std::move(task));
    }
}

void read_requirements(const TomlReader& r, const std::unordered_map<std::string, int>& tasks,
                       const std::unordered_map<std::string, int>& streams, Workload& w) {
    const TomlArray* arr = array_of_tables(r, "requirement");
    if (!arr) return;
    std::unordered_map<std::string, int> names;
    for (const TomlNode& node : *arr) {
        const TomlTable& t = *node.as_table();
        r.only_keys(t, {"name", "task", "response_time", "analysed"}, "[[requirement]]");
        Requirement q;
        q.where = r.where(t);
        q.name = r.name(r.required(t, "name", "[[requirement]]"), "name", "requirement name");
        if (auto [it, fresh] = names.try_emplace(q.name, 0); !fresh)
            r.fail(t, "requirement '" + q.name + "' is declared twice");
        const TomlNode& target = r.required(t, "task", "[[requirement]]");
        const std::string name = r.string(target, "task");
        const auto task = tasks.find(name);
        const auto stream = streams.find(name);
        if (task != tasks.end() && stream != streams.end())
            r.fail(target, "'" + name + "' names both a cpu_task and a stream; rename one of them");
        const TomlNode* analysed = t.get("analysed");
        if (analysed && r.boolean(*analysed, "analysed")) r.fail(*analysed, "'analysed' may only be false");
        if (analysed && (task != tasks.end() || stream != streams.end()))
            r.fail(*analysed, "'analysed = false' marks a requirement on a task the workload leaves out, but " +
                                  quoted_name(name) + " is declared here: remove 'analysed'");
        if (analysed) q.target = Requirement::Target::not_analysed, q.left_out = name;
        else if (task != tasks.end()) q.index = task->second;
        else if (stream != streams.end()) q.target = Requirement::Target::stream, q.index = stream->second;
        else
            r.fail(target, "unknown task or stream " + quoted_name(name) +
                               " (a requirement on a task the workload leaves out needs 'analysed = false')");
        const TomlNode& limit = r.required(t, "response_time", "[[requirement]]");
        q.response_time = r.time(limit, "response_time");
        if (q.response_time <= 0) r.fail(limit, "'response_time' must be > 0");
        w.cpu.requirements.push_back(std::move(q));
    }
}

}  // namespace

void read_cpu_side(const TomlReader& r, const std::unordered_map<std::string, int>& streams, Workload& w) {
    std::unordered_map<std::string, int> cpus, tasks;
    read_cpus(r, cpus, w);
    read_tasks(r, cpus, streams, tasks, w);
    read_requirements(r, tasks, streams, w);
}

}  // namespace gpuwcrt
