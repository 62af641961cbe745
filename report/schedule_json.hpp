#pragma once
#include "report/json.hpp"

#include "sim/schedule.hpp"

namespace gpuwcrt {

// {"operations":[{"name","kind","stream","issue","start","finish","response","deadline",
//  "deadline_met"}…], "blocks":[{"kernel","index","sm","start","end"}…]} (no "blocks" without
// `with_blocks`), with two or more GPU contexts also "slices" and "switches"; times as exact
// strings ("3/2").
// "slices" and "switches": [{"context","start","end"}…], when each context held the compute
// engine and the switches between (docs/theory/semantics.md §10).
void add_context_slices(Json& out, const Workload& w, const Schedule& s);

Json schedule_json(const Workload& w, const Schedule& s, bool with_blocks = true);

}  // namespace gpuwcrt
