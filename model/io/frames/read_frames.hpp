#pragma once
// The keys of docs/theory/semantics.md §9 in a workload TOML: a [[stream]]'s period, min_interarrival,
// offset and jitter, and an operation's `wait`. Each error points at the key or name at fault.
#include <string>
#include <unordered_map>
#include <vector>

#include "model/io/toml_reader.hpp"

namespace gpuwcrt {

// The stream's arrival from table `t` (no key: once, Arrival::Kind::none).
Arrival read_arrival(const TomlReader& r, const TomlTable& t);

// Every operation's `wait` (tables[i] is the table of w.ops[i]; `index` maps names to
// operations), checked: known names of the same frame's streams (frames_pair), not itself, not
// twice, no NULL stream in the workload, and no cycle with stream order.
void read_waits(const TomlReader& r, const std::vector<const TomlTable*>& tables,
                const std::unordered_map<std::string, int>& index, Workload& w);

}  // namespace gpuwcrt
