#pragma once
// `certify` on a workload with a CPU side (docs/theory/semantics.md §11): the model's
// requirements, through the fixed point of the CPU and GPU bounds (solver/cpu/cpu_side.hpp).
#include "app/verification.hpp"
#include "model/workload.hpp"

namespace gpuwcrt::app {

// Refuses what this analysis does not cover (an engine other than the default, --bound), then
// prints the verdicts; the exit code as certify's: 0 all certified, 1 some refuted, 2 unknown.
int certify_requirements(const VerifyOptions& o, const Workload& w, bool bounds_given);

}  // namespace gpuwcrt::app
