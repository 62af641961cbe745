#pragma once
// Where a block ran: with time slices, a block of a preempted kernel runs in pieces, the parts
// of [start, end] during which its context held the compute engine (docs/theory/semantics.md §10).
#include <utility>
#include <vector>

#include "sim/schedule.hpp"

namespace gpuwcrt {

// The intervals during which block `b` ran, in time order: [start, end] itself without slices.
std::vector<std::pair<Time, Time>> block_pieces(const Workload& w, const Schedule& s, const BlockTiming& b);

}  // namespace gpuwcrt
