#pragma once
// The item graphs of runnables and tasks in every form AMALTHEA has had since 0.9: `callGraph`
// with `graphEntries`/`calls` (tasks) and `runnableItems` (runnables) up to 0.9.4, `callGraph`
// with `items` in 0.9.5-0.9.9, `activityGraph` from 1.0 on. The importer understands the items
// that fix a runnable's work, a task's call order and its offloading of GPU work, and refuses
// every other item.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "model/io/amalthea/xml_source.hpp"
#include "model/workload.hpp"

namespace gpuwcrt::amalthea {

// One step of a task, in order: a runnable call, an InterProcessTrigger, or an OS event item.
struct TaskStep {
    enum class Kind { call, trigger, set_event, wait_event, clear_event };
    Kind kind = Kind::call;
    pugi::xml_node node;      // the item
    pugi::xml_node runnable;  // for a call
};

// A task's steps, through ordered Groups (0.9.0-0.9.4: CallSequences); any other item is an
// InputError.
std::vector<TaskStep> task_steps(const XmlSource& src, const pugi::xml_node& task,
                                 const std::map<std::string, pugi::xml_node>& runnables);

// What a runnable does: its Ticks items and the labels it reads and writes (LabelAccess items),
// through Groups; any other item is an InputError.
struct RunnableBody {
    std::vector<pugi::xml_node> ticks;
    std::vector<pugi::xml_node> reads, writes;  // LabelAccess items
    // A ProbabilitySwitch chooses further label accesses: no time on a CPU (label accesses are not
    // timed there), an unknown copy size on the GPU.
    bool switched_labels = false;
};
RunnableBody runnable_body(const XmlSource& src, const pugi::xml_node& runnable);

// The sum of a runnable's Ticks items, each the value `extended` gives for one of `definitions`
// (ProcessingUnitDefinition names) when it has one, else its default; `where` names the
// processing unit for the error of a Ticks with neither.
TimeRange ticks_on(const XmlSource& src, const RunnableBody& body, const std::set<std::string>& definitions,
                   const std::string& where);

}  // namespace gpuwcrt::amalthea
