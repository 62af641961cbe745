#pragma once
// A frame is released at one instant: its operations' issue windows in the unrolled workload
// (model/frames/unroll.hpp) are each the release window shifted, but a scenario of the system
// picks one release for the whole frame. Unrolled, the windows are independent, which is sound
// for upper bounds (more scenarios) but not for a lower bound, whose witness must be a
// scenario of the system.
#include "model/frames/unroll.hpp"
#include "sim/witness.hpp"

namespace gpuwcrt {

// Whether, in every frame of `u`, one release instant explains every instant `x` chooses: each
// operation's issue instant (its window's lower end when `x` leaves it open) minus its offset in
// the frame, and the release's lower end for an `after_stream_idle` (the simulator starts its
// wait there); and whether a sporadic stream of `file` (not made periodic) can release its
// frames at such instants, at least its min_interarrival apart up to its jitter.
bool frames_consistent(const Workload& file, const Unrolled& u, const WitnessScenario& x);

}  // namespace gpuwcrt
