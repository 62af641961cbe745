#pragma once
#include "sim/sim_state.hpp"

namespace gpuwcrt {

// SPEC §5: which of the fitting SMs gets the next block (`fitting` is non-empty).
int place_block(SimState& s, int kernel, std::int64_t block, const std::vector<int>& fitting);

}  // namespace gpuwcrt
