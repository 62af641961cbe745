#pragma once
// The tools that analyse one frame refuse periodic and sporadic streams (docs/theory/semantics.md §9):
// an answer for one frame says nothing about all time.
#include <string>

#include "model/workload.hpp"

namespace gpuwcrt {

// Throws InputError at the first periodic or sporadic stream of `w`, saying that `what` (e.g.
// "gpuwcrt wcrt") has no all-time analysis yet and that `gpuwcrt simulate --frames N` runs frames.
void require_one_frame(const Workload& w, const std::string& what);

}  // namespace gpuwcrt
