#pragma once
// Bounds for every frame of periodic streams, for all time, without asking the GPU to be idle at
// any instant: a fixed point of the interference bound over two hyperperiods (docs/theory/all-time.md,
// "A steady state of the bounds").
#include <optional>
#include <string>
#include <vector>

#include "bounds/interference/interference.hpp"
#include "model/frames/unroll.hpp"

namespace gpuwcrt {

struct SteadyState {
    // The frames of the first three periods of the argument: the earlier (pinned), the later (the
    // bounds) and the next (whose frames reach the later ones' last instants); `response` is per
    // operation of the earlier period, a bound of that frame in every period, for ever.
    Unrolled unrolled;
    std::vector<int> first;                     // the operations of `unrolled` in the first hyperperiod
    std::vector<std::optional<Time>> response;  // per operation of `unrolled` (none in the second hyperperiod)
    int iterations = 0;
};

struct SteadyOptions {
    int max_iterations = 64;
    int hyperperiods = 1;  // L: the period of the argument is L hyperperiods
    InterferenceMutation mutation = InterferenceMutation::none;
    bool from_idle = false;  // test-only: the second hyperperiod analysed without the first's carry-over
};

// The bounds, or nullopt with `why` set: the fixed point was not reached within the iterations
// or the budget, or some frame is not proven to complete within two hyperperiods of its
// hyperperiod's start. Every stream must be periodic with its offset below its period.
std::optional<SteadyState> steady_state_bounds(const Workload& w, const Budget& budget, const SteadyOptions& o,
                                               std::string& why);

// The first L of 1, 2, 4 whose steady state settles, and per operation of `w` the largest
// response bound over its frames; nullopt with `why` set when none does (or the frames cannot
// be unrolled). The bounds hold for every frame, for ever.
struct SteadyBounds {
    int hyperperiods = 0;                    // L
    std::vector<std::optional<Time>> upper;  // per operation of w
};
std::optional<SteadyBounds> steady_bounds(const Workload& w, const Budget& budget, SteadyOptions o, std::string& why);

}  // namespace gpuwcrt
