#include "model/io/amalthea/gpu_scheduler.hpp"

#include <algorithm>

#include "model/name_policy.hpp"

namespace gpuwcrt::amalthea {
namespace {

// A scheduling parameter's name without the "extended: " that APP4MC's migration to 2.0 puts
// before the parameters of a UserSpecificSchedulingAlgorithm.
// The key reference keeps the '+' of its form encoding ("extended%3A+minimumTimeslice").
std::string plain_parameter(std::string name) {
    const std::string extended = "extended:";
    if (name.rfind(extended, 0) != 0) return name;
    name = name.substr(extended.size());
    return name.substr(std::min(name.find_first_not_of(" +"), name.size()));
}

// The parameters of an element: parameterExtensions (key, value) of 0.9/1.x, or
// schedulingParameters (key a reference to a SchedulingParameterDefinition, child value) of 2.x.
std::map<std::string, std::pair<std::string, pugi::xml_node>> scheduler_parameters(const pugi::xml_node& owner) {
    std::map<std::string, std::pair<std::string, pugi::xml_node>> out;
    for (const pugi::xml_node& p : owner.children("parameterExtensions"))
        out[plain_parameter(p.attribute("key").value())] = {p.attribute("value").value(), p};
    for (const pugi::xml_node& p : owner.children("schedulingParameters")) {
        const auto ref = parse_reference(p.attribute("key").value());
        if (ref) out[plain_parameter(ref->name)] = {p.child("value").attribute("value").value(), p};
    }
    return out;
}

Time slice_value(const XmlSource& src, const std::pair<std::string, pugi::xml_node>& p, const std::string& what) {
    const auto t = text_time_ms(p.first);
    if (!t || *t <= 0)
        throw InputError(src.where(p.second), what + " " + quoted_name(p.first.substr(0, 80)) +
                                                  " is no positive time (a number and one of s, ms, us, µs, ns)");
    return *t;
}

struct SchedulerReader {
    const XmlSource& src;
    GpuScheduling out;
    pugi::xml_node scheduler_node;

    void scheduler(const std::string& name, const pugi::xml_node& allocation, const std::string& task) {
        if (!out.scheduler.empty() && out.scheduler != name)
            throw InputError(src.where(allocation), "the GPU tasks are scheduled by different TaskSchedulers (" +
                                                        quoted_name(out.scheduler) + " and " + quoted_name(name) +
                                                        " for task " + quoted_name(task) +
                                                        "): gpuwcrt reads one GPU scheduler");
        if (!out.scheduler.empty()) return;
        scheduler_node = find_task_scheduler(src.root().child("osModel"), name);
        if (!scheduler_node)
            throw InputError(src.where(allocation), "task " + quoted_name(task) + " is allocated to TaskScheduler " +
                                                        quoted_name(name) + ", which the osModel does not define");
        const auto params = scheduler_parameters(
            scheduler_node.child("schedulingAlgorithm") ? scheduler_node.child("schedulingAlgorithm") : scheduler_node);
        const auto lo = params.find("minimumTimeslice"), hi = params.find("maximumTimeslice");
        if (lo == params.end() || hi == params.end()) {
            const std::string algorithm = algorithm_name(scheduler_node);
            throw InputError(src.where(scheduler_node),
                             "the GPU tasks are scheduled by TaskScheduler " + quoted_name(name) +
                                 " with the algorithm " + quoted_name(algorithm.empty() ? "(none)" : algorithm) +
                                 ", which gpuwcrt does not read as a GPU scheduler: it reads a time-sliced one "
                                 "(parameters minimumTimeslice and maximumTimeslice, a TimeSlice_<task> per "
                                 "task allocation); give --one-process to import the GPU tasks as streams of "
                                 "one process instead");
        }
        out.scheduler = name;
        out.allowed = {slice_value(src, lo->second, "minimumTimeslice"),
                       slice_value(src, hi->second, "maximumTimeslice")};
        if (out.allowed.lo > out.allowed.hi)
            throw InputError(src.where(scheduler_node),
                             "TaskScheduler " + quoted_name(name) + " has minimumTimeslice above maximumTimeslice");
    }

    void slice(const pugi::xml_node& allocation, const std::string& task) {
        const auto params = scheduler_parameters(allocation);
        auto it = params.find("TimeSlice_" + task);
        if (it == params.end()) it = params.find("TimeSlice");
        if (it == params.end())
            throw InputError(src.where(allocation),
                             "task " + quoted_name(task) + " is on the time-sliced GPU scheduler " +
                                 quoted_name(out.scheduler) + " but its allocation gives no time slice (parameter " +
                                 quoted_name("TimeSlice_" + task) + ")");
        const Time t = slice_value(src, it->second, "time slice");
        if (t < out.allowed.lo || t > out.allowed.hi)
            throw InputError(src.where(it->second.second),
                             "the time slice of task " + quoted_name(task) + ", " + human_string(t) +
                                 " ms, is outside the GPU scheduler's [minimumTimeslice, maximumTimeslice] = [" +
                                 human_string(out.allowed.lo) + ", " + human_string(out.allowed.hi) + "] ms");
        out.slices[task] = {t, src.where(it->second.second)};
    }
};

}  // namespace

pugi::xml_node find_task_scheduler(const pugi::xml_node& node, const std::string& name) {
    for (const pugi::xml_node& c : node.children()) {
        if (local_name(c) == "taskSchedulers" && name == c.attribute("name").value()) return c;
        if (const pugi::xml_node found = find_task_scheduler(c, name)) return found;
    }
    return {};
}

// What a TaskScheduler's algorithm is called, in either form, for messages.
std::string algorithm_name(const pugi::xml_node& scheduler) {
    if (const pugi::xml_node a = scheduler.child("schedulingAlgorithm")) return xsi_type(a);
    if (const auto d = parse_reference(scheduler.attribute("definition").value())) return d->name;
    return "";
}

std::optional<Time> text_time_ms(const std::string& text) {
    static const std::vector<std::pair<std::string, Time>> per_ms = {{"\xC2\xB5s", Time(1, 1000)},
                                                                     {"\xCE\xBCs", Time(1, 1000)},
                                                                     {"us", Time(1, 1000)},
                                                                     {"ns", Time(1, 1000000)},
                                                                     {"ms", 1},
                                                                     {"s", 1000}};
    for (const auto& [unit, factor] : per_ms) {
        if (text.size() <= unit.size() || text.compare(text.size() - unit.size(), unit.size(), unit) != 0) continue;
        std::string number = text.substr(0, text.size() - unit.size());
        while (!number.empty() && number.back() == ' ') number.pop_back();
        const auto v = parse_time(number);
        if (!v) return std::nullopt;
        return *v * factor;
    }
    return std::nullopt;
}

GpuScheduling read_gpu_scheduling(const XmlSource& src, const GpuContext& gpu) {
    SchedulerReader r{src, {}, {}};
    for (const pugi::xml_node& a : src.root().child("mappingModel").children("taskAllocation")) {
        const auto task = parse_reference(a.attribute("task").value());
        if (!task || std::find(gpu.gpu_tasks.begin(), gpu.gpu_tasks.end(), task->name) == gpu.gpu_tasks.end()) continue;
        const auto scheduler = parse_reference(src.required(a, "scheduler"));
        if (!scheduler)
            throw InputError(src.where(a), "task " + quoted_name(task->name) + " has no TaskScheduler reference");
        r.scheduler(scheduler->name, a, task->name);
        r.slice(a, task->name);
    }
    return std::move(r.out);
}

}  // namespace gpuwcrt::amalthea
