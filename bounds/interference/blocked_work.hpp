#pragma once
// The occupancy argument of docs/interference.md: while a kernel waits for its last dispatch,
// the head of the highest non-empty EE queue fits on no SM, so every SM carries blocks whose
// normalised use reaches 1. Integrated over the waits, that use is at most the weighted work of
// the blocks that can run during them.
#include <vector>

#include "bounds/interference/chain_op.hpp"
#include "bounds/interference/interference.hpp"
#include "model/platform.hpp"

namespace gpuwcrt::interference {

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

// At least the SM count times Σ over the segment's kernels of (last dispatch − join). Sums of
// `heading` values saturate at `limit`.
Time blocked_work(const std::vector<ChainOp>& ops, const Needs& cap, const Platform& platform, int streams,
                  const Segment& seg, const Heading& heading, std::int64_t limit, InterferenceMutation mutation);

// At least the SM count times the time at which `kernel` heads the queue while only its own
// blocks run: each SM then holds as many as fit, so each weighs 1/(its blocks per SM).
Time alone_work(const std::vector<ChainOp>& ops, const Needs& cap, const Platform& platform, int kernel,
                InterferenceMutation mutation);

// At least the SM count times the time during its wait at which the segment's one kernel heads
// the queue (its `solo`).
Time solo_work(const std::vector<ChainOp>& ops, const Needs& cap, const Platform& platform, int streams,
               const Segment& seg, InterferenceMutation mutation);

}  // namespace gpuwcrt::interference
