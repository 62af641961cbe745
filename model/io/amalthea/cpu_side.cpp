#include "model/io/amalthea/cpu_side.hpp"

#include <algorithm>
#include <set>

#include "model/io/amalthea/gpu_scheduler.hpp"
#include "model/io/amalthea/graphs.hpp"
#include "model/name_policy.hpp"

namespace gpuwcrt::amalthea {
namespace {

std::string joined_names(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

// The taskAllocation's priority: 0.9.x's attribute, or 2.x's parameter `priority` (its value
// element); none when the allocation gives none.
std::optional<std::int64_t> allocation_priority(const XmlSource& src, const pugi::xml_node& allocation) {
    for (const pugi::xml_node& p : allocation.children("schedulingParameters")) {
        pugi::xml_node at = p;
        std::string text = p.attribute("priority").value();
        const auto key = parse_reference(p.attribute("key").value());
        if (text.empty() && key && key->name == "priority") at = p.child("value"), text = at.attribute("value").value();
        if (text.empty()) continue;
        std::size_t used = 0;
        std::int64_t v = 0;
        try {
            v = std::stoll(text, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != text.size())
            throw InputError(src.where(at), "priority " + quoted_name(text.substr(0, 40)) + " is no integer");
        return v;
    }
    return std::nullopt;
}

// The task a trigger of `stimulus` activates: the one whose stimuli name it.
std::string activated_by(const XmlSource& src, const ModelIndex& model, const std::string& stimulus) {
    for (const auto& [name, task] : model.tasks) {
        const pugi::xml_node s = stimulus_of(src, model, task);
        if (s && stimulus == s.attribute("name").value()) return name;
    }
    return "";
}

class CpuSideReader {
public:
    CpuSideReader(const XmlSource& src, const ModelIndex& model, const GpuContext& gpu, const CpuSideInputs& in,
                  Workload& w, std::vector<std::string>& notes)
        : src_(src), model_(model), gpu_(gpu), streams_(in.streams), given_(in.priority), w_(w), notes_(notes) {}

    void run() {
        for (const std::string& name : gpu_.other_tasks) classify(name);
        for (const pugi::xml_node& t : src_.root().child("swModel").children("tasks")) {
            const std::string name = t.attribute("name").value();
            if (cpu_tasks_.count(name) && !triggered_on_cpu(t)) tasks_.push_back(read_task(t));
        }
        for (const std::string& name : cpu_tasks_)
            if (triggered_on_cpu(model_.tasks.at(name)) && !folded_.count(name))
                throw InputError(src_.where(model_.tasks.at(name)),
                                 "task " + quoted_name(name) +
                                     " on a CPU is activated by an InterProcessStimulus that no CPU task fires "
                                     "and waits for: gpuwcrt imports CPU tasks that are periodic, or run for one "
                                     "that triggers them and waits");
        emit();
    }

private:
    struct Draft {
        CpuTask task;
        std::int64_t priority = 0;
        std::vector<std::string> units;
    };

    void classify(const std::string& name) {
        const auto units = gpu_.task_units.find(name);
        if (units == gpu_.task_units.end() || units->second.empty()) {
            unallocated_.push_back(name);
            return;
        }
        for (const std::string& u : units->second)
            if (!gpu_.units.count(u))
                throw InputError(src_.where(gpu_.allocations.at(name)),
                                 "task " + quoted_name(name) + " is allocated to " + quoted_name(u) +
                                     ", which is no ProcessingUnit of the hardware model");
        cpu_tasks_.insert(name);
    }

    bool triggered_on_cpu(const pugi::xml_node& task) const {
        const pugi::xml_node s = stimulus_of(src_, model_, task);
        return s && xsi_type(s) == "InterProcessStimulus";
    }

    // The allocation's priority, else the one --priority gives (said); neither is an InputError.
    std::int64_t priority_of(const std::string& task) {
        const pugi::xml_node allocation = gpu_.allocations.at(task);
        const auto model = allocation_priority(src_, allocation);
        const auto option = given_.find(task);
        if (model && option != given_.end())
            throw option_error("--priority", "task " + quoted_name(task) + " has priority " + std::to_string(*model) +
                                                 " in its taskAllocation; remove --priority " + task);
        if (model) return *model;
        if (option == given_.end())
            throw InputError(src_.where(allocation), "the taskAllocation of task " + quoted_name(task) +
                                                         " on a CPU gives no priority; give it with --priority " +
                                                         task + "=N (a larger value runs first)");
        if (noted_.insert(task).second)
            notes_.push_back("priority of task '" + task + "' given by --priority: " + std::to_string(option->second));
        return option->second;
    }

    Draft read_task(const pugi::xml_node& t) {
        const std::string name = t.attribute("name").value();
        check_name(src_.where(t), name, "task name");
        const pugi::xml_node allocation = gpu_.allocations.at(name);
        Draft d;
        d.task.name = name;
        d.task.where = src_.where(t);
        d.units = gpu_.task_units.at(name);
        d.priority = priority_of(name);
        check_scheduler(allocation, name, d.units);
        d.task.arrival = release(t);
        split_work(t, d);
        if (d.task.execution.hi + d.task.after_gpu.hi <= 0)
            throw InputError(src_.where(t), "task " + quoted_name(name) + " on a CPU executes for no time (no Ticks)");
        return d;
    }

    // An affinity outside the scheduler's responsibility is the model contradicting itself: the
    // affinity is where the task runs, and that is said.
    void check_scheduler(const pugi::xml_node& allocation, const std::string& task,
                         const std::vector<std::string>& units) {
        const auto ref = parse_reference(allocation.attribute("scheduler").value());
        const std::string scheduler = ref ? ref->name : "";
        const auto resp = gpu_.responsibility.find(scheduler);
        if (resp == gpu_.responsibility.end() || resp->second.empty()) return;
        for (const std::string& u : units)
            if (std::find(resp->second.begin(), resp->second.end(), u) == resp->second.end()) {
                notes_.push_back("the model contradicts itself: task '" + task + "' is allocated to TaskScheduler '" +
                                 scheduler + "', responsible for " + joined_names(resp->second) +
                                 ", but its affinity is " + joined_names(units) +
                                 "; gpuwcrt takes the affinity: the task runs there, by its priority among every "
                                 "task of those cores, whatever their scheduler");
                return;
            }
    }

    Arrival release(const pugi::xml_node& t) {
        const std::string name = t.attribute("name").value();
        const pugi::xml_node s = stimulus_of(src_, model_, t);
        if (!s || xsi_type(s) != "PeriodicStimulus")
            throw InputError(src_.where(s ? s : t), "task " + quoted_name(name) + " on a CPU is activated by " +
                                                        (s ? "a " + xsi_type(s) : std::string("no stimulus")) +
                                                        ": gpuwcrt imports periodic CPU tasks (PeriodicStimulus)");
        const Periodic p = periodic(src_, s, notes_);
        if (p.jitter.hi != 0)
            throw InputError(src_.where(s), "task " + quoted_name(name) +
                                                " on a CPU is released with jitter: gpuwcrt analyses CPU tasks "
                                                "released at their period");
        Arrival a;
        a.kind = Arrival::Kind::periodic;
        a.period = p.recurrence;
        a.offset = p.offset;
        return a;
    }

    // The task's runnables before its GPU trigger and after it; the runnables of a CPU task it
    // triggers and waits for join the part they run in.
    void split_work(const pugi::xml_node& t, Draft& d) {
        std::vector<pugi::xml_node> before, after;
        bool waited = false;
        for (const TaskStep& s : task_steps(src_, t, model_.runnables)) {
            std::vector<pugi::xml_node>& part = d.task.gpu ? after : before;
            if (s.kind == TaskStep::Kind::call) part.push_back(s.runnable);
            else if (s.kind == TaskStep::Kind::wait_event) waited = true;
            else if (s.kind == TaskStep::Kind::trigger) {
                waited = false;
                const auto ref = parse_reference(s.node.attribute("stimulus").value());
                const std::string target = ref ? activated_by(src_, model_, ref->name) : "";
                if (const auto stream = streams_.find(target); stream != streams_.end()) {
                    if (d.task.gpu)
                        throw InputError(src_.where(s.node), "task " + quoted_name(d.task.name) +
                                                                 " offloads twice in one activation: gpuwcrt "
                                                                 "imports one GPU frame per job");
                    d.task.gpu = stream->second;
                } else {
                    fold(s.node, d, target, part);
                }
            }
        }
        if (d.task.gpu && !waited)
            throw InputError(src_.where(t), "task " + quoted_name(d.task.name) +
                                                " releases GPU work and does not wait for it (no WaitEvent after "
                                                "its InterProcessTrigger): gpuwcrt analyses an offloading task "
                                                "that waits for its frame");
        std::string units;
        const TimeRange pre = cpu_work_ms(src_, gpu_, t, before, units);
        const TimeRange post = cpu_work_ms(src_, gpu_, t, after, units);
        d.task.execution = {pre.lo, pre.hi};
        d.task.after_gpu = {post.lo, post.hi};
        if (!d.task.gpu) d.task.after_gpu = {0, 0};
    }

    // A CPU task `target` released by this task's trigger at `item`: its runnables run within
    // this job, which waits for it; sound only at the same priority on the same cores.
    void fold(const pugi::xml_node& item, const Draft& d, const std::string& target,
              std::vector<pugi::xml_node>& part) {
        if (!cpu_tasks_.count(target))
            throw InputError(src_.where(item), "task " + quoted_name(d.task.name) +
                                                   " fires an InterProcessTrigger that activates no task on a CPU "
                                                   "or the GPU");
        if (gpu_.task_units.at(target) != d.units || priority_of(target) != d.priority)
            throw InputError(src_.where(item),
                             "task " + quoted_name(d.task.name) + " triggers task " + quoted_name(target) +
                                 " on a CPU with another priority or affinity: gpuwcrt imports a triggered CPU "
                                 "task as part of its trigger's job, which needs both the same");
        for (const TaskStep& s : task_steps(src_, model_.tasks.at(target), model_.runnables)) {
            if (s.kind == TaskStep::Kind::call) part.push_back(s.runnable);
            else if (s.kind != TaskStep::Kind::set_event && s.kind != TaskStep::Kind::clear_event)
                throw InputError(src_.where(s.node), "task " + quoted_name(target) +
                                                         ", triggered by a CPU task, triggers or waits itself: "
                                                         "gpuwcrt does not import chains of triggers");
        }
        folded_.insert(target);
        notes_.push_back("task '" + target + "' (on " + joined_names(d.units) + ") runs within task '" + d.task.name +
                         "', which triggers it and waits for it, at the same priority on the same cores");
    }

    void emit() {
        std::map<std::string, int> cores;
        for (const auto& [unit, info] : gpu_.units)
            for (const Draft& d : tasks_)
                if (std::find(d.units.begin(), d.units.end(), unit) != d.units.end() && !cores.count(unit)) {
                    check_name(src_.where(info.node), unit, "processing unit name");
                    cores[unit] = static_cast<int>(w_.cpu.cpus.size());
                    w_.cpu.cpus.push_back({unit, src_.where(info.node)});
                }
        for (const Draft& d : tasks_) {
            CpuTask t = d.task;
            t.cpus.clear();
            for (const std::string& u : d.units) t.cpus.push_back(cores.at(u));
            t.priority = d.priority;
            if (t.gpu) w_.streams[*t.gpu].arrival = driven_arrival(t, t.execution.hi);
            w_.cpu.tasks.push_back(std::move(t));
        }
        for (const auto& [task, priority] : given_)
            if (!noted_.count(task))
                throw option_error("--priority", quoted_name(task) + " is no task the mapping places on a CPU");
        if (!unallocated_.empty())
            notes_.push_back("tasks allocated to no processing unit, left out: " + joined_names(unallocated_));
        notes_.push_back(
            "CPU tasks from the mapping: execution times are their runnables' Ticks at their cores' frequencies "
            "(each core's own ProcessingUnitDefinition); the time of their label accesses is not modelled");
    }

    const XmlSource& src_;
    const ModelIndex& model_;
    const GpuContext& gpu_;
    const std::map<std::string, int>& streams_;
    const std::map<std::string, std::int64_t>& given_;
    Workload& w_;
    std::vector<std::string>& notes_;
    std::set<std::string> cpu_tasks_, folded_, noted_;  // noted_: priorities given by --priority
    std::vector<std::string> unallocated_;
    std::vector<Draft> tasks_;
};

}  // namespace

std::string cpu_side_left_out(const XmlSource& src, const GpuContext& gpu) {
    for (const std::string& task : gpu.other_tasks) {
        const auto allocation = gpu.allocations.find(task);
        if (allocation == gpu.allocations.end()) continue;
        const auto ref = parse_reference(allocation->second.attribute("scheduler").value());
        const std::string scheduler = ref ? ref->name : "";
        const pugi::xml_node node = find_task_scheduler(src.root().child("osModel"), scheduler);
        const std::string algorithm = node ? algorithm_name(node) : "";
        if (algorithm != "FixedPriorityPreemptive")
            return "task '" + task + "' is scheduled by TaskScheduler '" + scheduler + "' with the algorithm '" +
                   (algorithm.empty() ? "(none)" : algorithm) +
                   "', and gpuwcrt analyses CPU tasks under FixedPriorityPreemptive only";
    }
    return "";
}

void import_cpu_side(const XmlSource& src, const ModelIndex& model, const GpuContext& gpu, const CpuSideInputs& in,
                     Workload& w, std::vector<std::string>& notes) {
    CpuSideReader(src, model, gpu, in, w, notes).run();
}

}  // namespace gpuwcrt::amalthea
