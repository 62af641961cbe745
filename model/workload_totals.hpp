#pragma once
#include "model/workload.hpp"

namespace gpuwcrt {

// Workload-wide sums (total blocks; blocks x threads, x shared memory, x registers per block)
// stay within limits::max_total, so that no analysis summing them can overflow. An InputError
// at the kernel that makes a sum exceed it. Per-kernel values must already be within their limits.
void check_workload_totals(const Workload& w);

}  // namespace gpuwcrt
