#pragma once
// Bounds on the response of every frame of every operation, for all time, of a workload with
// periodic or sporadic streams (docs/theory/all-time.md): the frames of k hyperperiods unrolled with a
// proof that the GPU is idle at the end, after which everything repeats; a steady state of the
// interference bound over three periods; or a busy window every busy period ends within. Lower
// bounds from replayed scenarios of the unrolled frames, naming the frame.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bounds/answer.hpp"
#include "bounds/frames/overload.hpp"
#include "bounds/frames/sliced_busy_window.hpp"
#include "bounds/interference/interference.hpp"
#include "common/budget.hpp"
#include "model/frames/unroll.hpp"
#include "solver/frames/frame_exploration.hpp"
#include "solver/frames/frames_run.hpp"
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
    // Above this many operations in one unrolled hyperperiod the busy window runs first, and
    // the arguments that unroll hyperperiods only where it leaves an operation unbounded.
    long busy_window_first_above = 500;
    long hyperperiod_arguments_up_to = 10000;
    // When an operation needs no further lower bound (EngineRequest::settled: certify's verdict
    // known); empty: once exact, or under a proven overload once a replayed frame misses its
    // deadline. The lower-bound search stops when every operation is settled.
    std::function<bool(const WcrtAnswer&)> settled;
    // Test-only, so that the differential tests can show they catch an unsound bound: a
    // mutation of the interference bound, or the first hyperperiod taken as closed unproven.
    InterferenceMutation mutation = InterferenceMutation::none;
    bool assume_idle = false;
    bool steady_from_idle = false;         // the steady state's later hyperperiods analysed without carry-over
    bool explore_drop_carry_over = false;  // the exploration's window moved on without the unfinished frames
    SlicedMutation sliced_mutation = SlicedMutation::none;  // the busy window under time slices broken
};

// Per operation of the file (indexed like its ops): `upper` bounds every frame's response, for
// all time; `lower` is a replayed response of frame `frame`, `witness` a scenario of `unrolled`'s
// workload; exact when they meet.
struct AllTimeResult : FramesRun {
    std::vector<WcrtAnswer> answers;
};

// Releases that repeat every hyperperiod (periodic streams, offsets below periods) are bounded
// by closures and the steady state; the others (sporadic streams, larger offsets), and those
// when both fail, by the busy window.
AllTimeResult all_time_bounds(const Workload& w, const Budget& budget, const AllTimeOptions& o = {});

}  // namespace gpuwcrt
