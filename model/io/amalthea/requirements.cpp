#include "model/io/amalthea/requirements.hpp"

#include "model/io/amalthea/values.hpp"
#include "model/name_policy.hpp"

namespace gpuwcrt::amalthea {
namespace {

// A requirement gpuwcrt checks: an upper limit on a task's response time. The enumerations'
// defaults when the attribute is absent are AMALTHEA's first literals (UpperLimit; the metric
// has none that means a response time).
bool checked_limit(const pugi::xml_node& limit) {
    const std::string type = limit.attribute("limitType").value();
    return xsi_type(limit) == "TimeRequirementLimit" && (type.empty() || type == "UpperLimit") &&
           std::string(limit.attribute("metric").value()) == "ResponseTime";
}

// The period of a task activated by a PeriodicStimulus, for the warning about a limit past it.
std::optional<Time> requirement_task_period(const XmlSource& src, const ModelIndex& model, const pugi::xml_node& task) {
    const std::vector<std::string> refs = split_references(task.attribute("stimuli").value());
    if (refs.size() != 1) return std::nullopt;
    const auto ref = parse_reference(refs[0]);
    const auto it = ref ? model.stimuli.find(ref->name) : model.stimuli.end();
    if (it == model.stimuli.end() || xsi_type(it->second) != "PeriodicStimulus") return std::nullopt;
    const pugi::xml_node recurrence = it->second.child("recurrence");
    return recurrence ? std::optional<Time>(time_ms(src, recurrence)) : std::nullopt;
}

class RequirementReader {
public:
    RequirementReader(const XmlSource& src, const ModelIndex& model, Workload& w) : src_(src), model_(model), w_(w) {}

    ImportedRequirements run() {
        const pugi::xml_node constraints = src_.root().child("constraintsModel");
        for (const pugi::xml_node& c : constraints.children()) {
            if (std::string(c.name()) == "requirements" && xsi_type(c) == "ProcessRequirement") process(c);
            else unchecked(c, "gpuwcrt checks upper limits on tasks' response times (ProcessRequirement) only");
        }
        bool on_stream = false;
        for (const Requirement& q : w_.cpu.requirements)
            on_stream = on_stream || q.target == Requirement::Target::stream;
        if (!on_stream)
            out_.notes.push_back(
                "no deadline on the GPU streams: the model states none (a requirement on a GPU task would be one)");
        return std::move(out_);
    }

private:
    void unchecked(const pugi::xml_node& c, const std::string& why) {
        const std::string type = xsi_type(c).empty() ? std::string(c.name()) : xsi_type(c);
        out_.notes.push_back("not checked: " + type + " " + quoted_name(c.attribute("name").value()) +
                             " of the model's constraintsModel (line " + std::to_string(src_.where(c).line) +
                             "): " + why);
    }

    void process(const pugi::xml_node& c) {
        const std::string name = src_.required(c, "name");
        const pugi::xml_node limit = c.child("limit");
        if (!limit || !checked_limit(limit))
            return unchecked(c, "its limit is not an upper limit on the response time (metric " +
                                    quoted_name(limit.attribute("metric").value()) + ", " +
                                    quoted_name(limit.attribute("limitType").value()) + ")");
        const auto ref = parse_reference(src_.required(c, "process"));
        if (!ref || ref->type != "Task") return unchecked(c, "it is on a process that is not a Task");
        const auto task = model_.tasks.find(ref->name);
        if (task == model_.tasks.end())
            throw InputError(src_.where(c), "requirement " + quoted_name(name) + " is on task " +
                                                quoted_name(ref->name) + ", which the model does not have");
        const pugi::xml_node value = limit.child("limitValue");
        if (!value) throw InputError(src_.where(limit), "requirement " + quoted_name(name) + " has no <limitValue>");
        Requirement q;
        q.name = name;
        q.where = src_.where(c);
        q.response_time = time_ms(src_, value);
        if (q.response_time <= 0)
            throw InputError(src_.where(value), "requirement " + quoted_name(name) +
                                                    " allows no time: the limit "
                                                    "must be > 0");
        target(q, ref->name, task->second);
        w_.cpu.requirements.push_back(std::move(q));
    }

    // The workload's task of that name, its stream of that name (a requirement on a GPU task is
    // on its frames), or neither: kept, not analysed, and said.
    void target(Requirement& q, const std::string& task, const pugi::xml_node& node) {
        const std::string source = "requirement " + quoted_name(q.name) + ": the model's ProcessRequirement, at most " +
                                   human_string(q.response_time) + " ms response time of task " + quoted_name(task);
        for (std::size_t i = 0; i < w_.cpu.tasks.size(); ++i)
            if (w_.cpu.tasks[i].name == task) {
                q.index = static_cast<int>(i);
                out_.notes.push_back(source + " (each job, release to end)");
                return;
            }
        for (std::size_t s = 0; s < w_.streams.size(); ++s)
            if (w_.streams[s].name == task) {
                q.target = Requirement::Target::stream;
                q.index = static_cast<int>(s);
                out_.notes.push_back(source + ", a task on the GPU (each frame, release to its last operation)");
                return;
            }
        q.target = Requirement::Target::not_analysed;
        q.left_out = task;
        warn(source + ", which this workload leaves out: not checked");
        const auto period = requirement_task_period(src_, model_, node);
        if (period && q.response_time > *period)
            warn("requirement " + quoted_name(q.name) + " allows " + human_string(q.response_time) +
                 " ms, more than task " + quoted_name(task) + "'s period " + human_string(*period) + " ms");
    }

    void warn(const std::string& text) {
        out_.warnings.push_back(text);
        out_.notes.push_back(text);
    }

    const XmlSource& src_;
    const ModelIndex& model_;
    Workload& w_;
    ImportedRequirements out_;
};

}  // namespace

ImportedRequirements import_requirements(const XmlSource& src, const ModelIndex& model, Workload& w) {
    return RequirementReader(src, model, w).run();
}

}  // namespace gpuwcrt::amalthea
