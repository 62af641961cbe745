#pragma once
// What the verification engines cannot range over yet: block-time (or copy-duration)
// intervals and issue windows with lo < hi. Checking a few instants of them (both ends, a
// grid) is not sound because of scheduling anomalies (docs/decisions.md, "Block-time
// intervals and issue windows in verification"), so `wcrt` and `certify` refuse them.
#include "model/workload.hpp"

namespace gpuwcrt {

// Throws InputError at the first operation with a time interval or an issue window of
// positive length, saying why and what to do instead. Point intervals [x, x] pass.
void require_fixed_times(const Workload& w);

}  // namespace gpuwcrt
