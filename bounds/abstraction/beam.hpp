#pragma once
// Lower bounds from a beam over concrete states: the abstract graph's transitions on a copy
// of the workload with every interval and window at one end (so that every interval is a
// point and each state is one concrete state), keeping per key S the `width` states that are
// latest (largest availability), and every operation's worst response with the path that
// reached it: launch order, SM of every block, the chosen times. A strategy of the lower-bound
// search that walks the abstraction's transitions, so it stays with them: its candidates are
// offered to sim/search/lower_bounds.hpp, which replays each; only replayed ones become lower
// bounds.
#include <chrono>
#include <optional>
#include <vector>

#include "bounds/abstraction/problem.hpp"
#include "common/budget.hpp"
#include "sim/witness.hpp"

namespace gpuwcrt::abstraction {

struct BeamCandidate {
    Time response;
    WitnessScenario witness;  // for the original workload (block times, issue instants included)
};

// `upper_ends`: block times at hi and windows at lo, else block times at lo and windows at hi.
// Stops when `budget` runs out, with what it found so far.
std::vector<std::optional<BeamCandidate>> beam_candidates(const Workload& w, bool upper_ends, int width,
                                                          const Budget& budget);

}  // namespace gpuwcrt::abstraction
