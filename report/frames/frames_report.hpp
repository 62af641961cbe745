#pragma once
// `simulate` of a workload with periodic or sporadic streams (docs/theory/semantics.md §9): every
// frame's operations, with their frame and release, and each operation's worst response over
// the frames simulated.
#include <ostream>
#include <string>

#include "model/frames/unroll.hpp"
#include "report/json.hpp"
#include "sim/schedule.hpp"

namespace gpuwcrt {

// "3 frames of each periodic or sporadic stream", "the frames released by 100", "one
// hyperperiod (30): ...".
std::string horizon_text(const Workload& original, const Horizon& h);

// The operations in launch order with their frame and release, then the worst response of each
// operation of `original` (sim/frames/frame_summary.hpp); with `with_blocks` every block too.
void print_frames_table(std::ostream& out, const Workload& original, const Horizon& h, const Unrolled& u,
                        const Schedule& s, bool with_blocks);

// Adds to `out`, schedule_json of u.workload, each operation's "origin", "frame" and "release",
// and "horizon", "streams" (their arrival and frames simulated) and "summary" (per operation of
// `original`: frames, worst_response, worst_frame, deadline, missed); times as exact strings.
void add_frames_json(Json& out, const Workload& original, const Horizon& h, const Unrolled& u, const Schedule& s);

}  // namespace gpuwcrt
