#pragma once
#include "model/workload.hpp"

namespace gpuwcrt {

// Checks that need the whole workload: per-block limits (R1), blocks that fit no SM,
// and issue times that decrease within a stream. Throws InputError at the operation.
void validate_workload(const Workload& w);

}  // namespace gpuwcrt
