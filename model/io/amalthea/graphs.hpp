#pragma once
// The item graphs of runnables and tasks: `callGraph` in AMALTHEA 0.9, `activityGraph` from 1.0
// on, each a tree of `items` (Group, RunnableCall, Ticks, …). The importer understands the items
// that fix a GPU runnable's work and a task's call order, and refuses every other item.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "model/io/amalthea/xml_source.hpp"
#include "model/workload.hpp"

namespace gpuwcrt::amalthea {

// The runnables a task calls, in order: RunnableCall items, through ordered Groups.
std::vector<pugi::xml_node> task_calls(const XmlSource& src, const pugi::xml_node& task,
                                       const std::map<std::string, pugi::xml_node>& runnables);

// A runnable's execution time in ticks: the sum of its Ticks items (through Groups), each the
// value `extended` gives for a GPU's ProcessingUnitDefinition when it has one, else its default.
TimeRange runnable_ticks(const XmlSource& src, const pugi::xml_node& runnable,
                         const std::set<std::string>& gpu_definitions);

}  // namespace gpuwcrt::amalthea
