#pragma once
// docs/theory/semantics.md §5: which SM gets the next block when several fit.
#include <vector>

#include "sim/sim_state.hpp"

namespace gpuwcrt {

// A fixed policy (first-fit, most-room, round-robin): the SM that gets one more block of
// demand `d`, given every SM's usage, or -1 when it fits on none. `round_robin_last` is the SM
// that took the previous block (-1: none yet). The simulator and the exact engine
// (solver/exact/step.cpp) both place blocks through it, so that a fixed policy is written once
// outside the encodings, which state it as constraints (docs/theory/rules.md).
int policy_sm(Policy policy, const std::vector<SmUsage>& sms, const BlockDemand& d, const Platform& p,
              int round_robin_last);

// The simulator's choice for block `block` of `kernel` (`fitting` is non-empty): a fixed
// placement of the scenario, else the chooser, else policy_sm.
int place_block(SimState& s, int kernel, std::int64_t block, const std::vector<int>& fitting);

}  // namespace gpuwcrt
