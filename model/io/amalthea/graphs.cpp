#include "model/io/amalthea/graphs.hpp"

#include "model/io/amalthea/values.hpp"
#include "model/name_policy.hpp"

namespace gpuwcrt::amalthea {
namespace {

std::string kind_of(const pugi::xml_node& item) {
    const std::string t = xsi_type(item);
    return t.empty() ? "<" + std::string(item.name()) + ">" : t;
}

// 0.9.0-0.9.4 names the ordered group CallSequence and the task's call TaskRunnableCall; the
// migration to 0.9.5 renamed them Group (ordered) and RunnableCall without changing meaning.
bool is_group(const std::string& type) { return type == "Group" || type == "CallSequence"; }
bool is_call(const std::string& type) { return type == "RunnableCall" || type == "TaskRunnableCall"; }

// The items of a graph element, whatever the version calls them.
std::vector<pugi::xml_node> children_items(const pugi::xml_node& parent) {
    std::vector<pugi::xml_node> out;
    for (const pugi::xml_node& c : parent.children()) {
        const std::string n = c.name();
        if (n == "items" || n == "graphEntries" || n == "calls" || n == "runnableItems") out.push_back(c);
    }
    return out;
}

// The top-level items of a task's or runnable's graph: callGraph (0.9), activityGraph (1.x,
// 2.x), or the runnable's own runnableItems (0.9.0-0.9.4).
std::vector<pugi::xml_node> graph_items(const XmlSource& src, const pugi::xml_node& owner) {
    const pugi::xml_node call = owner.child("callGraph"), activity = owner.child("activityGraph");
    if (call && activity)
        throw InputError(src.where(activity), "both a callGraph and an activityGraph: one model version at a time");
    std::vector<pugi::xml_node> items = children_items(call ? call : activity);
    for (const pugi::xml_node& old : owner.children("runnableItems")) {
        if (call || activity)
            throw InputError(src.where(old), "<runnableItems> (AMALTHEA 0.9.0-0.9.4) beside a " +
                                                 std::string(call ? "callGraph" : "activityGraph") +
                                                 ": one model version at a time");
        items.push_back(old);
    }
    return items;
}

void check_order(const XmlSource& src, const pugi::xml_node& group) {
    if (xsi_type(group) == "Group" && std::string(group.attribute("ordered").value()) == "false" &&
        children_items(group).size() > 1)
        throw InputError(src.where(group),
                         "an unordered Group of several items leaves the order of its runnables "
                         "open; gpuwcrt needs the task's order");
}

void collect_steps(const XmlSource& src, const std::vector<pugi::xml_node>& items,
                   const std::map<std::string, pugi::xml_node>& runnables, std::vector<TaskStep>& out) {
    for (const pugi::xml_node& item : items) {
        const std::string type = xsi_type(item);
        if (is_group(type)) {
            check_order(src, item);
            collect_steps(src, children_items(item), runnables, out);
        } else if (is_call(type)) {
            const std::string text = src.required(item, "runnable");
            const auto ref = parse_reference(text);
            const auto it = ref ? runnables.find(ref->name) : runnables.end();
            if (it == runnables.end())
                throw InputError(src.where(item), "RunnableCall of " + quoted_name(text.substr(0, 80)) +
                                                      ", which is no runnable of this model");
            if (item.child("counter"))
                throw InputError(src.where(item.child("counter")),
                                 "a RunnableCall with a counter (every n-th activation) is not supported");
            out.push_back({TaskStep::Kind::call, item, it->second});
        } else if (type == "InterProcessTrigger") {
            out.push_back({TaskStep::Kind::trigger, item, {}});
        } else if (type == "SetEvent" || type == "WaitEvent" || type == "ClearEvent") {
            const auto kind = type == "SetEvent"    ? TaskStep::Kind::set_event
                              : type == "WaitEvent" ? TaskStep::Kind::wait_event
                                                    : TaskStep::Kind::clear_event;
            out.push_back({kind, item, {}});
        } else {
            throw InputError(src.where(item), "unsupported item " + quoted_name(kind_of(item)) +
                                                  " in a task's graph (gpuwcrt reads RunnableCall, ordered Group, "
                                                  "InterProcessTrigger, SetEvent, WaitEvent and ClearEvent items)");
        }
    }
}

// A ProbabilitySwitch whose branches run nothing but label accesses (MobSTr's safety cut-sets).
bool label_only_switch(const pugi::xml_node& item) {
    for (const pugi::xml_node& entry : item.children("entries"))
        for (const pugi::xml_node& i : entry.children("items"))
            if (xsi_type(i) != "LabelAccess") return false;
    return true;
}

void collect_body(const XmlSource& src, const std::vector<pugi::xml_node>& items, RunnableBody& body) {
    for (const pugi::xml_node& item : items) {
        const std::string type = xsi_type(item);
        if (type == "Group") {
            collect_body(src, children_items(item), body);
        } else if (type == "Ticks") {
            body.ticks.push_back(item);
        } else if (type == "LabelAccess") {
            const std::string access = src.required(item, "access");
            if (access != "read" && access != "write")
                throw InputError(src.where(item), "LabelAccess with access " + quoted_name(access) +
                                                      ": gpuwcrt reads 'read' and 'write'");
            (access == "read" ? body.reads : body.writes).push_back(item);
        } else if (type == "ProbabilitySwitch" && label_only_switch(item)) {
            body.switched_labels = true;
        } else if (type == "ExecutionNeed") {
            throw InputError(src.where(item),
                             "an ExecutionNeed (instructions, AMALTHEA 0.9.0-0.9.2) in a runnable: gpuwcrt reads "
                             "execution times as Ticks; migrate the model to AMALTHEA 0.9.3 or later with APP4MC's "
                             "model migration, which turns instructions into Ticks over the cores' IPC");
        } else {
            throw InputError(src.where(item), "unsupported item " + quoted_name(kind_of(item)) +
                                                  " in a runnable: gpuwcrt models a runnable by its Ticks and its "
                                                  "LabelAccess items (and Groups of them), so the item's time would "
                                                  "be lost");
        }
    }
}

// The Ticks value that applies on a unit of one of `definitions`.
pugi::xml_node value_for(const XmlSource& src, const pugi::xml_node& ticks, const std::set<std::string>& definitions,
                         const std::string& where) {
    for (const pugi::xml_node& e : ticks.children("extended")) {
        const auto ref = parse_reference(e.attribute("key").value());
        if (ref && definitions.count(ref->name)) {
            const pugi::xml_node v = e.child("value");
            if (!v) throw InputError(src.where(e), "<extended> needs a <value> element");
            return v;
        }
    }
    const pugi::xml_node d = ticks.child("default");
    if (!d)
        throw InputError(src.where(ticks), "Ticks without a default value and without an extended value for " + where);
    return d;
}

}  // namespace

std::vector<TaskStep> task_steps(const XmlSource& src, const pugi::xml_node& task,
                                 const std::map<std::string, pugi::xml_node>& runnables) {
    std::vector<TaskStep> out;
    collect_steps(src, graph_items(src, task), runnables, out);
    return out;
}

RunnableBody runnable_body(const XmlSource& src, const pugi::xml_node& runnable) {
    RunnableBody body;
    collect_body(src, graph_items(src, runnable), body);
    return body;
}

TimeRange ticks_on(const XmlSource& src, const RunnableBody& body, const std::set<std::string>& definitions,
                   const std::string& where) {
    TimeRange sum{0, 0};
    for (const pugi::xml_node& t : body.ticks) {
        const TimeRange r = tick_range(src, value_for(src, t, definitions, where));
        sum = {sum.lo + r.lo, sum.hi + r.hi};
    }
    return sum;
}

}  // namespace gpuwcrt::amalthea
