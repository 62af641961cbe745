#pragma once
// Bounds on the response of every frame of every operation, for all time, of a workload with
// periodic or sporadic streams (docs/all-time.md): the frames of k hyperperiods unrolled with a
// proof that the GPU is idle at the end, after which everything repeats; a steady state of the
// interference bound over three periods; or a busy window every busy period ends within. Lower
// bounds from replayed scenarios of the unrolled frames, naming the frame.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bounds/answer.hpp"
#include "bounds/frames/overload.hpp"
#include "bounds/interference/interference.hpp"
#include "common/budget.hpp"
#include "model/frames/unroll.hpp"
#include "solver/frames/frame_exploration.hpp"
#include "solver/engine.hpp"

namespace gpuwcrt {

struct AllTimeOptions {
    int max_hyperperiods = 8;             // k tried: 1 … this, while the budget lasts
    long lower_bound_simulations = 2000;  // per search of the lower bounds, at most (fewer on many frames)
    // Without --timeout, how long the one-frame engines may search the frames, over every k
    // (half of the time left at each k); zero: they do not run.
    std::chrono::milliseconds search_cap{10'000};
    // The whole analysis, when the budget has no deadline (no --timeout): a run ends on its own.
    std::chrono::milliseconds default_time{60'000};
    std::uint64_t seed = 12;
    // Test-only, so that the differential tests can show they catch an unsound bound: a
    // mutation of the interference bound, or the first hyperperiod taken as closed unproven.
    InterferenceMutation mutation = InterferenceMutation::none;
    bool assume_idle = false;
    bool steady_from_idle = false;         // the steady state's later hyperperiods analysed without carry-over
    bool explore_drop_carry_over = false;  // the exploration's window moved on without the unfinished frames
};

struct AllTimeResult {
    // Per operation of the file (indexed like its ops): `upper` bounds every frame's response,
    // for all time; `lower` is a replayed response of frame `frame[op]`, `witness` a scenario of
    // `unrolled`'s workload; exact when they meet.
    std::vector<WcrtAnswer> answers;
    std::vector<std::optional<std::int64_t>> frame;
    std::optional<Overload> overload;  // set: no bound exists (or none for the whole GPU)
    Time hyperperiod = 0;
    int closed_after = 0;              // k: the GPU proven idle at k hyperperiods; 0 when no k closed
    int steady_over = 0;               // L: the interference bound's steady state over L hyperperiods; 0: none
    std::string steady_why;            // why no steady state was found, when none was
    std::optional<Time> busy_window;   // X: every busy period proven to end within X, when that bounded frames
    std::string busy_why;              // why the busy window bounded nothing, when it was tried
    int explored_window = 0;           // hyperperiods of the window whose exploration closed; 0: none
    long long explored_states = 0;     // the states that exploration stored
    std::string explore_why;           // why the frames were not explored to a fixed point, when tried
    std::optional<Unrolled> unrolled;  // the frames the witnesses are scenarios of
    long long simulations = 0;
};

// Releases that repeat every hyperperiod (periodic streams, offsets below periods) are bounded
// by closures and the steady state; the others (sporadic streams, larger offsets), and those
// when both fail, by the busy window.
AllTimeResult all_time_bounds(const Workload& w, const Budget& budget, const AllTimeOptions& o = {});

}  // namespace gpuwcrt
