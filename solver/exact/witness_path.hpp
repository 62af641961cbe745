#pragma once
// Witness reconstruction (docs/theory/exact-engine.md, "Witness"): re-executes the recorded decisions
// of a path from the initial state, maps canonical SM positions back to real SM ids, finishes
// the run with the first option at every later choice, and returns the scenario (launch order,
// SM of every block) that the simulator replays.
#include <vector>

#include "solver/exact/problem.hpp"
#include "sim/witness.hpp"

namespace gpuwcrt::exact {

// `steps`: the decisions of each macro step from the initial state, in order.
WitnessScenario reconstruct_witness(const Problem& p, const std::vector<std::vector<int>>& steps);

}  // namespace gpuwcrt::exact
