#pragma once
// What `rta-check` does not take: block-time (or copy-duration) intervals and issue windows
// with lo < hi. It compares the RTA with the exact WCRT, and over such ranges the engines give
// only a grid maximum (a lower bound) and proven upper bounds, not the worst case
// (docs/theory/encoding.md, "Intervals and windows: the grid"); `wcrt` and `certify` take them.
#include "model/workload.hpp"

namespace gpuwcrt {

// Throws InputError at the first operation with a time interval or an issue window of
// positive length, saying why and what to do instead. Point intervals [x, x] pass.
void require_fixed_times(const Workload& w);

}  // namespace gpuwcrt
