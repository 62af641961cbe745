#pragma once
// What a simulation of several frames says about each operation of the original workload
// (docs/theory/semantics.md §9): its worst response over the frames simulated, and where.
#include <vector>

#include "model/frames/unroll.hpp"
#include "sim/schedule.hpp"

namespace gpuwcrt {

struct FrameWorst {
    int op = 0;               // in the original workload
    std::int64_t frames = 0;  // of it simulated
    int worst = -1;           // the unrolled operation with the largest response; the earliest frame on ties
    Time response;            // its response
    std::int64_t missed = 0;  // frames whose response exceeds the deadline
};

// One entry per operation of `original` with at least one frame in `u`, in file order; `s` is
// the schedule of u.workload.
std::vector<FrameWorst> worst_per_operation(const Workload& original, const Unrolled& u, const Schedule& s);

}  // namespace gpuwcrt
