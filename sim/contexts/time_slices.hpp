#pragma once
// Rules T1-T4 of docs/theory/semantics.md §10: the compute engine between GPU contexts.
#include <cstdint>

#include "sim/sim_state.hpp"

namespace gpuwcrt::rules {

// Step 4b, before blocks are dispatched: at a switch's end its context gets the engine and its
// stopped blocks resume (T4); the running context gives the engine up when it has no kernel
// left (T3) or when its slice ends while another context is pending (T2: its blocks stop); an
// idle engine starts a switch to the next pending context in file order after the one that ran
// last (T4). Nothing without slices. Returns whether anything changed.
bool t1_t4_time_slices(SimState& s);

// How many events in a row a run with slices takes at most without an issue or a completion of
// a block or a copy: past it the simulator is looping, a bug, and stops with an internal error
// rather than hang.
std::int64_t slice_events_without_progress(const Workload& w);

}  // namespace gpuwcrt::rules
