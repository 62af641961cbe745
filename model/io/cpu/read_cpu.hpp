#pragma once
// The keys of docs/theory/semantics.md §11 in a workload TOML: [[cpu]], [[cpu_task]] and
// [[requirement]]. A stream named by a task's `gpu` takes its releases from that task.
#include <string>
#include <unordered_map>

#include "model/io/toml_reader.hpp"
#include "model/workload.hpp"

namespace gpuwcrt {

// The root's [[key]] tables; nullptr without the key; an error when `key` is not such an array.
// Here rather than in toml_reader.hpp so that adding it recompiles only its two readers.
inline const TomlArray* array_of_tables(const TomlReader& r, const char* key) {
    const TomlNode* n = r.root().get(key);
    if (!n) return nullptr;
    const TomlArray* a = n->as_array();
    if (!a || !a->is_array_of_tables())
        r.fail(*n, std::string("'") + key + "' must be written as [[" + key + "]] tables");
    return a;
}

// Reads the three tables into w.cpu (w.streams already read; `streams` maps their names) and
// gives every driven stream its release window with the task alone on its core; the analysis
// widens it (solver/cpu/). Errors at the key or table at fault.
void read_cpu_side(const TomlReader& r, const std::unordered_map<std::string, int>& streams, Workload& w);

}  // namespace gpuwcrt
