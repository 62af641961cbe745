#pragma once
#include "report/json.hpp"

#include "sim/schedule.hpp"

namespace gpuwcrt {

// {"operations":[{"name","kind","stream","issue","start","finish","response"}…],
//  "blocks":[{"kernel","index","sm","start","end"}…]}; times as exact strings ("3/2").
Json schedule_json(const Workload& w, const Schedule& s);

}  // namespace gpuwcrt
