#pragma once
#include <ostream>

#include "sim/schedule.hpp"

namespace gpuwcrt {

// Per operation (launch order): issue, start, finish, response, deadline; then per block.
void print_schedule_table(std::ostream& out, const Workload& w, const Schedule& s, bool with_blocks);
// An empty line, then what the compute engine did between GPU contexts, in time order: each
// switch ("switch to" its context) and each slice a context ran (docs/theory/semantics.md §10).
void print_context_slices(std::ostream& out, const Workload& w, const Schedule& s);
// An empty line, then every block in dispatch order: its kernel:index, SM, start and end.
void print_block_table(std::ostream& out, const Workload& w, const Schedule& s);

}  // namespace gpuwcrt
