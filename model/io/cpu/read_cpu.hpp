#pragma once
// The keys of docs/theory/semantics.md §11 in a workload TOML: [[cpu]], [[cpu_task]] and
// [[requirement]]. A stream named by a task's `gpu` takes its releases from that task.
#include <string>
#include <unordered_map>

#include "model/io/array_of_tables.hpp"
#include "model/workload.hpp"

namespace gpuwcrt {

// Reads the three tables into w.cpu (w.streams already read; `streams` maps their names) and
// gives every driven stream its release window with the task alone on its core; the analysis
// widens it (solver/cpu/). Errors at the key or table at fault.
void read_cpu_side(const TomlReader& r, const std::unordered_map<std::string, int>& streams, Workload& w);

}  // namespace gpuwcrt
