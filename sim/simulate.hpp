#pragma once
// The executable TX2 semantics of SPEC §4: the reference every other engine is checked against.
#include "sim/scenario.hpp"
#include "sim/schedule.hpp"

namespace gpuwcrt {

Schedule simulate(const Workload& w, const Scenario& scenario = {});

}  // namespace gpuwcrt
