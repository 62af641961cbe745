#pragma once
// Lower bounds over the phasings of sporadic streams (docs/theory/all-time.md, "Lower bounds"): a
// sporadic stream may release its first frame at any instant and the next ones at least its
// min_interarrival apart, so its densest releases from 0 are one scenario among many, and a
// frame released just as another stream's burst begins can respond far later. The frames are
// unrolled with each sporadic frame's window one min_interarrival wider than its densest one;
// the scenario search runs on several phasings (every sporadic stream's releases shifted by a
// fraction of its min_interarrival), each of whose scenarios is one of the wide frames'.
#include <cstdint>
#include <memory>
#include <vector>

#include "common/budget.hpp"
#include "model/frames/transforms.hpp"
#include "model/frames/unroll.hpp"
#include "sim/search/best_scenarios.hpp"
#include "sim/witness.hpp"

namespace gpuwcrt {

// The scenario search on each phasing (sporadic releases shifted by eighths of the longest
// min_interarrival and by the instants at which the other streams issue, no jitter), its best
// scenarios carried over to `u` (the frames
// lower_bound_frames made, model/frames/transforms.hpp) and replayed there: candidates for every operation, whose gaps
// frames_consistent still checks (frame_lower_bounds.hpp). `simulations` per phasing; `ran`
// counts the simulations. The result refers to u.workload.
search::BestScenarios phased_candidates(const Workload& w, const Unrolled& u, const Budget& budget, long simulations,
                                        std::uint64_t seed, long long& ran);

}  // namespace gpuwcrt
