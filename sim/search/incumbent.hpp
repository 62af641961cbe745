#pragma once
// A strategy of the lower-bound search (best_scenarios.hpp) for one operation: a good real
// scenario for "maximise the response of `op`", found by simulation alone. The SMT search
// starts from it, so most SAT checks only have to prove that nothing beats it. It keeps its
// one best itself: sideways moves replace it (the search drifts across plateaus), and its
// witness is built once, at the end. Deterministic: the same workload, operation and seed give
// the same scenario.
#include <chrono>
#include <cstdint>
#include <optional>

#include "common/budget.hpp"
#include "model/workload.hpp"
#include "sim/scenario.hpp"
#include "sim/witness.hpp"

namespace gpuwcrt::search {

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

}  // namespace gpuwcrt::search
