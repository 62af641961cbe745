#pragma once
// A witness of an all-time lower bound (solver/frames/all_time.hpp) as a workload that runs
// once: the unrolled frames with every choice the witness made fixed, so that a TOML copy of it
// replays the witnessed frame under `gpuwcrt simulate` (docs/decisions/0022-periodic-streams-and-frames.md, "Witness
// files over frames").
#include "model/frames/unroll.hpp"
#include "sim/witness.hpp"

namespace gpuwcrt {

// u.workload with `x` as its [scenario] (launch order, SMs, block times, issue instants, which
// fix each frame's release inside its jitter window), and each `after_stream_idle` of a frame
// turned into the plain one-frame `after_stream_idle` that issues it at the same instant in
// the replay of `x`: the delay after its predecessor's completion (after 0 for a stream's first
// operation). The frame's release has no key of its own in a file that runs once; replayed, the
// delay says when the host's wait from the release ended. A wait across rates becomes the plain
// wait on the frame the replay waited on.
Workload frames_witness_workload(const Unrolled& u, const WitnessScenario& x);

}  // namespace gpuwcrt
