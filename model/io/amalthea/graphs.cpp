#include "model/io/amalthea/graphs.hpp"

#include "model/io/amalthea/values.hpp"
#include "model/name_policy.hpp"

namespace gpuwcrt::amalthea {
namespace {

std::string kind_of(const pugi::xml_node& item) {
    const std::string t = xsi_type(item);
    return t.empty() ? "<" + std::string(item.name()) + ">" : t;
}

// callGraph (0.9) or activityGraph (1.x/2.x); a null node when the element has neither.
pugi::xml_node graph_of(const XmlSource& src, const pugi::xml_node& owner) {
    if (const pugi::xml_node old = owner.child("runnableItems"); old)
        throw InputError(src.where(old),
                         "<runnableItems> is the AMALTHEA 0.8 form; gpuwcrt reads 0.9 and later "
                         "(callGraph or activityGraph): migrate the model with APP4MC first");
    if (const pugi::xml_node old = owner.child("graphEntries"); old)
        throw InputError(src.where(old),
                         "<graphEntries> is the AMALTHEA 0.8 form; gpuwcrt reads 0.9 and later "
                         "(callGraph or activityGraph): migrate the model with APP4MC first");
    const pugi::xml_node call = owner.child("callGraph"), activity = owner.child("activityGraph");
    if (call && activity)
        throw InputError(src.where(activity), "both a callGraph and an activityGraph: one model version at a time");
    return call ? call : activity;
}

void collect_calls(const XmlSource& src, const pugi::xml_node& graph,
                   const std::map<std::string, pugi::xml_node>& runnables, std::vector<pugi::xml_node>& out) {
    for (const pugi::xml_node& item : graph.children("items")) {
        const std::string type = xsi_type(item);
        if (type == "Group") {
            if (std::string(item.attribute("ordered").value()) == "false" &&
                ++item.children("items").begin() != item.children("items").end())
                throw InputError(src.where(item),
                                 "an unordered Group of several items leaves the launch order "
                                 "of its runnables open; gpuwcrt needs the stream's order");
            collect_calls(src, item, runnables, out);
        } else if (type == "RunnableCall") {
            const std::string text = src.required(item, "runnable");
            const auto ref = parse_reference(text);
            const auto it = ref ? runnables.find(ref->name) : runnables.end();
            if (it == runnables.end())
                throw InputError(src.where(item), "RunnableCall of " + quoted_name(text.substr(0, 80)) +
                                                      ", which is no runnable of this model");
            if (item.child("counter"))
                throw InputError(src.where(item.child("counter")),
                                 "a RunnableCall with a counter (every n-th activation) is not supported");
            out.push_back(it->second);
        } else {
            throw InputError(src.where(item), "unsupported item " + quoted_name(kind_of(item)) +
                                                  " in the graph of a task on the GPU (gpuwcrt reads RunnableCall "
                                                  "and ordered Group items: a task's calls form one CUDA stream)");
        }
    }
}

// The Ticks value that applies on the GPU.
pugi::xml_node gpu_value(const XmlSource& src, const pugi::xml_node& ticks,
                         const std::set<std::string>& gpu_definitions) {
    for (const pugi::xml_node& e : ticks.children("extended")) {
        const auto ref = parse_reference(e.attribute("key").value());
        if (ref && gpu_definitions.count(ref->name)) {
            const pugi::xml_node v = e.child("value");
            if (!v) throw InputError(src.where(e), "<extended> needs a <value> element");
            return v;
        }
    }
    const pugi::xml_node d = ticks.child("default");
    if (!d)
        throw InputError(src.where(ticks),
                         "Ticks without a default value and without an extended value for a GPU "
                         "ProcessingUnitDefinition (puType=\"GPU\")");
    return d;
}

void sum_ticks(const XmlSource& src, const pugi::xml_node& graph, const std::set<std::string>& gpu_definitions,
               TimeRange& sum, int& count) {
    for (const pugi::xml_node& item : graph.children("items")) {
        const std::string type = xsi_type(item);
        if (type == "Group") {
            sum_ticks(src, item, gpu_definitions, sum, count);
        } else if (type == "Ticks") {
            const TimeRange r = tick_range(src, gpu_value(src, item, gpu_definitions));
            sum = {sum.lo + r.lo, sum.hi + r.hi};
            ++count;
        } else {
            throw InputError(src.where(item), "unsupported item " + quoted_name(kind_of(item)) +
                                                  " in a runnable on the GPU: gpuwcrt models a kernel by its Ticks "
                                                  "(and Groups of them) only, so the item's time would be lost");
        }
    }
}

}  // namespace

std::vector<pugi::xml_node> task_calls(const XmlSource& src, const pugi::xml_node& task,
                                       const std::map<std::string, pugi::xml_node>& runnables) {
    std::vector<pugi::xml_node> out;
    if (const pugi::xml_node g = graph_of(src, task)) collect_calls(src, g, runnables, out);
    if (out.empty())
        throw InputError(src.where(task), "task " + quoted_name(task.attribute("name").value()) + " calls no runnable");
    return out;
}

TimeRange runnable_ticks(const XmlSource& src, const pugi::xml_node& runnable,
                         const std::set<std::string>& gpu_definitions) {
    TimeRange sum{0, 0};
    int count = 0;
    if (const pugi::xml_node g = graph_of(src, runnable)) sum_ticks(src, g, gpu_definitions, sum, count);
    if (count == 0)
        throw InputError(src.where(runnable), "runnable " + quoted_name(runnable.attribute("name").value()) +
                                                  " has no Ticks item, so its kernel has no block time");
    return sum;
}

}  // namespace gpuwcrt::amalthea
