#pragma once
// A good real scenario for "maximise the response of one operation", found by simulation
// alone: the SMT search starts from it, so most SAT checks only have to prove that nothing
// beats it. Deterministic: the same workload, operation and seed give the same scenario.
#include <chrono>
#include <cstdint>
#include <optional>

#include "common/budget.hpp"
#include "model/workload.hpp"
#include "sim/scenario.hpp"
#include "sim/witness.hpp"

namespace gpuwcrt {

struct Incumbent {
    WitnessScenario witness;
    Time response = 0;
    long simulations = 0;
};

// Local search over launch orders (and, with Policy::chooser, SM choices): the file order and
// a few structured orders with `op` launched last, then moves of one operation at a time, keeping what does
// not lower the response, for at most `simulations` simulations, and nothing after the
// budget's deadline but the first structured start (a workload so large that one simulation
// outlasts the deadline still gets a real scenario, and the caller's --timeout is not spent here).
Incumbent search_incumbent(const Workload& w, int op, Policy policy, long simulations, std::uint64_t seed = 1,
                           const Budget& budget = Budget{});

}  // namespace gpuwcrt
