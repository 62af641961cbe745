#pragma once
// The [[cpu]], [[cpu_task]] and [[requirement]] tables of a workload, as read_cpu_side reads them.
#include <ostream>

#include "model/workload.hpp"

namespace gpuwcrt {

void write_cpu_side(std::ostream& out, const Workload& w);

}  // namespace gpuwcrt
