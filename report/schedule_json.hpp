#pragma once
#include "report/json.hpp"

#include "sim/schedule.hpp"

namespace gpuwcrt {

// {"operations":[{"name","kind","stream","issue","start","finish","response","deadline",
//  "deadline_met"}…], "blocks":[{"kernel","index","sm","start","end"}…]} (no "blocks" without
// `with_blocks`); times as exact strings ("3/2").
Json schedule_json(const Workload& w, const Schedule& s, bool with_blocks = true);

}  // namespace gpuwcrt
