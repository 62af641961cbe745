#pragma once
// Which kernels of a stream can hold SMs while a segment waits (docs/theory/interference.md, "Which
// kernels can occupy the SMs while a kernel waits"), found by two binary searches per stream
// instead of a pass over every operation.
//
// Along a stream the lower join ends never decrease (an operation joins after its predecessor
// completed, and its predecessor joined before that), and neither does the completion: the
// successor completes after it joins, which is after the operation completed (G2, G4, C1, C4).
// So every operation's completion is at most the smallest upper completion end of it and of the
// operations after it in its stream, its "latest completion". A kernel y can be active at J(o)
// only if that latest completion exceeds J_lo(o), and it can join before an instant t only if
// J_lo(y) <= t: both hold on one contiguous run of the stream's kernels.
#include <cstdint>
#include <span>
#include <vector>

#include "bounds/interference/chain_op.hpp"

namespace gpuwcrt::interference {

// What a set of kernels holds at the most, per resource: the largest need of a block (a head's
// need), the GCD of the needs (the unit every use is a multiple of), the largest need of a whole
// kernel (blocks × need: what one stream fills at one instant); and the longest block time.
struct Spread {
    Needs most{}, unit{}, fill{};
    std::int64_t longest = 0;

    void add(const ChainOp& k);
    void add(const Spread& other);
};

Spread spread_of(const std::vector<ChainOp>& ops, std::span<const int> kernels);

class CandidateIndex {
public:
    // `stream_ops`: each stream's operations in stream order. The lower ends of `ops` are final.
    CandidateIndex(const std::vector<ChainOp>& ops, const std::vector<std::vector<int>>& stream_ops);

    // The upper completion end of `op` (ops[op].done_hi) went down: the latest completions of it
    // and of the operations before it in its stream follow.
    void lowered(int op);

    // The kernels of `stream`, in stream order, whose latest completion is after `active_after`
    // and whose lower join end is at most `joined_by`.
    std::span<const int> kernels(int stream, std::int64_t active_after, std::int64_t joined_by) const;

    // The same by each kernel's own upper completion end (tests: what the index prunes more),
    // appended to `out`.
    void kernels_scanned(int stream, std::int64_t active_after, std::int64_t joined_by, std::vector<int>& out) const;

    // The spread of `kernels`, a span that kernels() returned for `stream`: two look-ups in a
    // sparse table (the spread of a union is the spread of its parts, overlapping or not).
    Spread spread(int stream, std::span<const int> kernels) const;

    int streams() const { return static_cast<int>(kernels_.size()); }
    bool high(int stream) const { return high_[stream]; }

    // The latest completion of `op`: at most its upper completion end.
    std::int64_t latest_done(int op) const { return latest_[op]; }

private:
    const std::vector<ChainOp>& ops_;
    std::vector<int> next_;                  // per operation: its stream successor, or -1
    std::vector<std::int64_t> latest_;       // per operation: its latest completion
    std::vector<std::vector<int>> kernels_;  // per stream: its kernels in stream order
    // Per stream, per kernel of kernels_: its lower join end and its latest completion.
    std::vector<std::vector<std::int64_t>> kernel_join_lo_, kernel_latest_;
    std::vector<int> kernel_slot_;  // per operation: its index in kernels_ of its stream, or -1
    std::vector<char> high_;        // per stream: high priority
    // Per stream, per level j, per position p: the spread of its kernels p .. p + 2^j − 1.
    std::vector<std::vector<std::vector<Spread>>> spreads_;
};

}  // namespace gpuwcrt::interference
