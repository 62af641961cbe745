#include "model/io/amalthea/activation.hpp"

#include <algorithm>

#include "model/io/amalthea/graphs.hpp"
#include "model/io/amalthea/values.hpp"
#include "model/name_policy.hpp"

namespace gpuwcrt::amalthea {

pugi::xml_node stimulus_of(const XmlSource& src, const ModelIndex& model, const pugi::xml_node& task) {
    const std::vector<std::string> refs = split_references(task.attribute("stimuli").value());
    if (refs.empty()) return {};
    const std::string name = task.attribute("name").value();
    if (refs.size() > 1)
        throw InputError(src.where(task), "task " + quoted_name(name) + " has " + std::to_string(refs.size()) +
                                              " stimuli; gpuwcrt imports a task activated by one stimulus");
    const auto ref = parse_reference(refs[0]);
    const auto it = ref ? model.stimuli.find(ref->name) : model.stimuli.end();
    if (it == model.stimuli.end())
        throw InputError(src.where(task), "stimulus " + quoted_name(refs[0].substr(0, 80)) + " is not in the model");
    return it->second;
}

Periodic periodic(const XmlSource& src, const pugi::xml_node& s, std::vector<std::string>& notes) {
    Periodic p;
    if (const pugi::xml_node o = s.child("offset")) p.offset = time_ms(src, o);
    const pugi::xml_node rec = s.child("recurrence");
    if (!rec) throw InputError(src.where(s), "a PeriodicStimulus needs a <recurrence>");
    p.recurrence = time_ms(src, rec);
    if (p.recurrence <= 0 || p.offset < 0)
        throw InputError(src.where(s), "a PeriodicStimulus needs recurrence > 0 and offset >= 0");
    if (const pugi::xml_node j = s.child("jitter")) p.jitter = time_range_ms(src, j);
    if (p.jitter.lo < 0) throw InputError(src.where(s), "a negative release jitter would release before the period");
    if (s.child("minDistance"))
        notes.push_back("stimulus '" + std::string(s.attribute("name").value()) +
                        "': minDistance is not modelled; the release windows allow every jitter, a superset of "
                        "the releases it permits");
    return p;
}

namespace {

// The task whose graph fires the InterProcessTrigger of `stimulus`.
pugi::xml_node trigger_owner(const XmlSource& src, const ModelIndex& model, const pugi::xml_node& stimulus) {
    const std::string name = stimulus.attribute("name").value();
    std::vector<std::pair<std::string, pugi::xml_node>> found;
    for (const auto& [task_name, task] : model.tasks) {
        const pugi::xml_node hit = task.find_node([&](const pugi::xml_node& n) {
            if (xsi_type(n) != "InterProcessTrigger") return false;
            const auto ref = parse_reference(n.attribute("stimulus").value());
            return ref && ref->name == name;
        });
        if (hit) found.emplace_back(task_name, task);
    }
    if (found.empty())
        throw InputError(src.where(stimulus), "InterProcessStimulus " + quoted_name(name) +
                                                  " activates a task on the GPU, but no task fires it (no "
                                                  "InterProcessTrigger of it), so the GPU task never runs");
    if (found.size() > 1)
        throw InputError(src.where(stimulus), "InterProcessStimulus " + quoted_name(name) + " is fired by tasks " +
                                                  quoted_name(found[0].first) + " and " + quoted_name(found[1].first) +
                                                  "; gpuwcrt imports a GPU task offloaded by one periodic task");
    return found[0].second;
}

// The runnables the CPU task runs before it fires the trigger of `stimulus`.
std::vector<pugi::xml_node> work_before_trigger(const XmlSource& src, const ModelIndex& model,
                                                const pugi::xml_node& cpu_task, const std::string& stimulus) {
    std::vector<pugi::xml_node> before;
    int triggers = 0;
    for (const TaskStep& s : task_steps(src, cpu_task, model.runnables)) {
        if (s.kind == TaskStep::Kind::trigger) {
            const auto ref = parse_reference(s.node.attribute("stimulus").value());
            if (ref && ref->name == stimulus && ++triggers > 1)
                throw InputError(src.where(s.node), "a second InterProcessTrigger of " + quoted_name(stimulus) +
                                                        " in one activation: gpuwcrt imports one GPU frame per "
                                                        "period of the offloading task");
        } else if (triggers == 0 && s.kind == TaskStep::Kind::wait_event) {
            throw InputError(src.where(s.node), "a WaitEvent before the InterProcessTrigger of " +
                                                    quoted_name(stimulus) +
                                                    ": the trigger would wait for another task, by an amount "
                                                    "the GPU model cannot bound");
        } else if (triggers == 0 && s.kind == TaskStep::Kind::call) {
            before.push_back(s.runnable);
        }
    }
    return before;
}

Activation offloaded(const XmlSource& src, const ModelIndex& model, const GpuContext& gpu, const pugi::xml_node& task,
                     const pugi::xml_node& stimulus) {
    Activation a;
    const std::string stim = stimulus.attribute("name").value();
    const pugi::xml_node cpu_task = trigger_owner(src, model, stimulus);
    const std::string cpu_name = cpu_task.attribute("name").value();
    const auto& gpu_tasks = gpu.gpu_tasks;
    if (std::find(gpu_tasks.begin(), gpu_tasks.end(), cpu_name) != gpu_tasks.end() || !gpu.has_mapping)
        throw InputError(src.where(cpu_task),
                         "task " + quoted_name(cpu_name) + " fires the InterProcessTrigger of " + quoted_name(stim) +
                             " but is not mapped to a CPU: gpuwcrt reads a trigger only in a CPU task that offloads "
                             "to the GPU (give the model a mapping that places it on a CPU)");
    const pugi::xml_node own = stimulus_of(src, model, cpu_task);
    if (!own || xsi_type(own) != "PeriodicStimulus")
        throw InputError(src.where(cpu_task), "task " + quoted_name(cpu_name) + ", which fires " + quoted_name(stim) +
                                                  ", is not activated by a PeriodicStimulus: gpuwcrt imports GPU "
                                                  "work offloaded by periodic tasks");
    const Periodic p = periodic(src, own, a.notes);
    std::string units;
    const TimeRange pre = cpu_work_ms(src, gpu, cpu_task, work_before_trigger(src, model, cpu_task, stim), units);
    a.arrival.kind = Arrival::Kind::periodic;
    a.arrival.period = p.recurrence;
    a.arrival.offset = p.offset + p.jitter.lo + pre.lo;
    a.arrival.jitter = p.jitter.hi + pre.hi - p.jitter.lo - pre.lo;
    a.offloader = cpu_name;
    a.window_note = "task '" + std::string(task.attribute("name").value()) + "': released when task '" + cpu_name +
                    "' (period " + human_string(p.recurrence) + " ms) fires '" + stim + "' after its work before " +
                    "the trigger, " + human_string(pre.lo) + " to " + human_string(pre.hi) + " ms on " + units +
                    ", not delayed by other CPU tasks";
    return a;
}

}  // namespace

// [fastest, slowest] time of `work` on the units the mapping gives `cpu_task`, in ms.
TimeRange cpu_work_ms(const XmlSource& src, const GpuContext& gpu, const pugi::xml_node& cpu_task,
                      const std::vector<pugi::xml_node>& work, std::string& units_text) {
    const std::string name = cpu_task.attribute("name").value();
    const auto it = gpu.task_units.find(name);
    if (it == gpu.task_units.end() || it->second.empty())
        throw InputError(src.where(cpu_task), "task " + quoted_name(name) +
                                                  " offloads to the GPU but the mapping allocates it to no "
                                                  "processing unit, so its work before the trigger has no duration");
    std::optional<TimeRange> out;
    for (const std::string& u : it->second) {
        const auto unit = gpu.units.find(u);
        const std::string where = "ProcessingUnit " + quoted_name(u);
        if (unit == gpu.units.end() || !unit->second.frequency_hz)
            throw InputError(src.where(cpu_task), "task " + quoted_name(name) + " runs on " + where +
                                                      ", which has no FrequencyDomain with a defaultValue, so its "
                                                      "work has no duration");
        TimeRange ticks{0, 0};
        for (const pugi::xml_node& r : work) {
            const TimeRange t = ticks_on(src, runnable_body(src, r), {unit->second.definition},
                                         "ProcessingUnitDefinition " + quoted_name(unit->second.definition));
            ticks = {ticks.lo + t.lo, ticks.hi + t.hi};
        }
        const Time ms = Time(1000) / *unit->second.frequency_hz;
        const Time lo = ticks.lo * ms, hi = ticks.hi * ms;
        out = out ? TimeRange{std::min(out->lo, lo), std::max(out->hi, hi)} : TimeRange{lo, hi};
        units_text += (units_text.empty() ? "" : ", ") + u;
    }
    return *out;
}

Activation read_activation(const XmlSource& src, const ModelIndex& model, const GpuContext& gpu,
                           const pugi::xml_node& task) {
    const pugi::xml_node s = stimulus_of(src, model, task);
    if (!s) return {};
    const std::string type = xsi_type(s);
    if (type == "InterProcessStimulus") return offloaded(src, model, gpu, task, s);
    if (type != "PeriodicStimulus")
        throw InputError(src.where(s), "stimulus of type " + quoted_name(type) +
                                           " is not supported: gpuwcrt imports periodic tasks (PeriodicStimulus), "
                                           "tasks offloaded by one (InterProcessStimulus) and tasks without a "
                                           "stimulus (one activation at 0)");
    Activation a;
    const Periodic p = periodic(src, s, a.notes);
    a.arrival.kind = Arrival::Kind::periodic;
    a.arrival.period = p.recurrence;
    a.arrival.offset = p.offset + p.jitter.lo;
    a.arrival.jitter = p.jitter.hi - p.jitter.lo;
    return a;
}

}  // namespace gpuwcrt::amalthea
