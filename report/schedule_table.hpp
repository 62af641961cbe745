#pragma once
#include <ostream>

#include "sim/schedule.hpp"

namespace gpuwcrt {

// Per operation (launch order): issue, start, finish, response, deadline; then per block.
void print_schedule_table(std::ostream& out, const Workload& w, const Schedule& s, bool with_blocks);

}  // namespace gpuwcrt
