#pragma once
// The keys of docs/theory/semantics.md §10 in a workload TOML: [[context]] tables (name,
// timeslice), a [[stream]]'s `context` and [platform] `context_switch`. Each error points at
// the key or table at fault.
#include "model/io/toml_reader.hpp"

namespace gpuwcrt {

// Every [[context]] table into w.contexts (names unique, timeslice > 0).
void read_contexts(const TomlReader& r, Workload& w);

// The context of the [[stream]] table `t`: with [[context]] tables it must name one, without
// them it must not have the key.
int read_stream_context(const TomlReader& r, const TomlTable& t, const Workload& w);

// [platform] context_switch (>= 0) when given; else, with two or more contexts, the default in
// the file's unit, added to w.assumptions, or an error when the file states no unit. Needs
// w.time_unit and w.contexts read.
void settle_context_switch(const TomlReader& r, Workload& w);

}  // namespace gpuwcrt
