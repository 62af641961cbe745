#pragma once
// The rules of docs/theory/semantics.md §9 that a workload with periodic or sporadic streams obeys as
// a whole (the loader checks each key and each `wait` where it is written).
#include "model/workload.hpp"

namespace gpuwcrt {

// Throws InputError at the operation that breaks one:
//  - with a periodic or sporadic stream, no operation name contains '#' (unrolled operations
//    are named NAME#k, model/frames/frame_name.hpp);
//  - in such a stream, frame k+1's first operation is not issued before frame k's last: when
//    both have an absolute `issue` (a first operation without one is issued at its frame's
//    release, offset 0), the last one's exceeds the first one's by at most the period, at both
//    ends of their windows (§3's "absolute issue times within a stream do not decrease",
//    carried across frames).
void validate_frames(const Workload& w);

}  // namespace gpuwcrt
