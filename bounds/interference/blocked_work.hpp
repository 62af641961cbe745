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

// At least the SM count times Σ over the segment's kernels of (last dispatch − join). `wait`:
// per operation, a proven bound on its own (last dispatch − join); sums of them saturate at
// `limit`.
Time blocked_work(const std::vector<ChainOp>& ops, const Needs& cap, const Platform& platform, int streams,
                  const Segment& seg, const std::vector<std::int64_t>& wait, std::int64_t limit,
                  InterferenceMutation mutation);

}  // namespace gpuwcrt::interference
