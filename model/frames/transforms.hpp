#pragma once
// The workloads the all-time analysis derives from a file's periodic and sporadic streams
// (docs/theory/all-time.md): each a workload of the model, analysed or searched by the layers above.
#include <string>
#include <vector>

#include "model/frames/unroll.hpp"
#include "model/workload.hpp"

namespace gpuwcrt {

bool has_sporadic_stream(const Workload& w);

// `w` with its sporadic streams released as densely as they may (made periodic): one scenario
// of the system, whose replayed frames are lower bounds.
Workload densest(const Workload& w);

// `w` with every release at the start of its jitter window.
Workload without_jitter(const Workload& w);

// The streams that repeat, alone: what runs after the streams that run once have finished.
// `to_file[i]`: the operation of `w` that operation i of the result is.
Workload repeating_part(const Workload& w, std::vector<int>& to_file);

// Why the releases of `w` do not repeat one pattern every hyperperiod from the start (a
// sporadic stream, or a periodic one whose offset is at or beyond its period), naming the first
// such stream; empty when they do. A stream that runs once repeats nothing and is no gap here.
std::string pattern_gap(const Workload& w);

// The frames the all-time analysis searches for lower bounds: the horizon `h` of `dense` (`w`
// with its sporadic streams at their densest releases), each frame of a sporadic stream of `w`
// released anywhere up to one min_interarrival after its densest window, so that the phasings
// of sporadic streams are scenarios of them. Without sporadic streams: unroll(dense, h).
Unrolled lower_bound_frames(const Workload& w, const Workload& dense, const Horizon& h);
inline Unrolled lower_bound_frames(const Workload& w, const Workload& dense, int k) {
    return lower_bound_frames(w, dense, hyperperiods_of(w, k));
}

}  // namespace gpuwcrt
