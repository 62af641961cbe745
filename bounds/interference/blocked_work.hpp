#pragma once
// The occupancy argument of docs/theory/interference.md: while a kernel waits for its last dispatch,
// the head of the highest non-empty EE queue fits on no SM, so every SM carries blocks whose
// normalised use reaches 1. Integrated over the waits, that use is at most the weighted work of
// the blocks that can run during them.
#include <vector>

#include "bounds/interference/candidates.hpp"
#include "bounds/interference/chain_op.hpp"
#include "bounds/interference/interference.hpp"
#include "bounds/interference/wide_int.hpp"
#include "model/platform.hpp"

namespace gpuwcrt::interference {

// What every bound below reads: the operations, the platform, the candidate index over the
// operations' current bounds, and the horizon at which every tick count saturates.
struct Context {
    const std::vector<ChainOp>& ops;
    const Needs& cap;
    const Platform& platform;
    const CandidateIndex& index;
    std::int64_t limit = 0;
    InterferenceMutation mutation = InterferenceMutation::none;
    Wide unchecked_scale = 0;       // see unchecked_scale()
    bool exact_arithmetic = false;  // tests: arbitrary precision only, no 128-bit sums
    bool scan_candidates = false;   // tests: each kernel's own completion end, not its stream's latest
};

// The largest unit scale (the LCM of the binding rooms) at which no product or sum of the
// occupancy integral over `ops` reaches 2^126, so that 128-bit sums need no check: each is at
// most the scale times the largest need, times Σ block time × blocks over the kernels, or times
// SMs × the longest block time × the kernels (the lower-priority term). A block's weight (at most
// the scale times its need) and its block time × blocks must fit 63 bits as well. 0 when those
// do not fit.
Wide unchecked_scale(const std::vector<ChainOp>& ops, const Platform& platform);

// Consecutive operations of one stream whose kernels' waits are bounded together.
struct Segment {
    std::vector<int> kernels;        // in stream order; at least one
    std::int64_t dispatched_by = 0;  // the last kernel's last dispatch instant, at most
};

// Per operation, proven bounds from earlier sweeps: `wait` on its (last dispatch − join), `solo`
// on the part of that time at which it heads the queue itself, and `alone` on the part at which
// it heads while only its own blocks run.
struct Heading {
    const std::vector<std::int64_t>& wait;
    const std::vector<std::int64_t>& solo;
    const std::vector<std::int64_t>& alone;
};

// At least Σ over the segment's kernels of (last dispatch − join), in ticks rounded up (the
// occupancy integral divided by the SM count), at most the limit.
std::int64_t blocked_ticks(const Context& c, const Segment& seg, const Heading& heading);

// At least the time at which `kernel` heads the queue while only its own blocks run: each SM
// then holds as many as fit, so each weighs 1/(its blocks per SM). In ticks, at most the limit.
std::int64_t alone_ticks(const Context& c, int kernel);

// At least the time during its wait at which the segment's one kernel heads the queue (its
// `solo`), given its `alone` ticks. In ticks, at most the limit.
std::int64_t solo_ticks(const Context& c, const Segment& seg, std::int64_t alone);

}  // namespace gpuwcrt::interference
