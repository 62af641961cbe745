#pragma once
// One kernel's blocks dispatched from an abstract state, block by block (X1, R1-R3, and A2's
// cuts where a high kernel may join meanwhile). docs/theory/abstraction.md argues each step.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "bounds/abstraction/problem.hpp"
#include "bounds/abstraction/state.hpp"
#include "common/budget.hpp"

namespace gpuwcrt::abstraction {

// A block time or copy duration: any value in [lo, hi] (a test-only mutation drops lo).
inline Interval duration_of(const Problem& p, int op) {
    const bool mutated = p.mutation == AbstractionMutation::drop_time_low;
    return {mutated ? p.times.hi[op] : p.times.lo[op], p.times.hi[op]};
}

// Kernel dispatch state between two blocks of one kernel: the SMs, when the previous block
// started (or the kernel became the EE head), and the hull of its block ends so far.
struct Partial {
    std::vector<SmState> sms;
    Interval prev;
    Interval done{0, 0};
    std::vector<int> block_sm;  // concrete mode: the SM (unsorted index) of each block so far
    bool operator==(const Partial&) const = default;
};

struct PartialOps {
    static Partial hull(const Partial& a, const Partial& b) {
        return {
            abstraction::hull(a.sms, b.sms), abstraction::hull(a.prev, b.prev), abstraction::hull(a.done, b.done), {}};
    }
    static bool contains(const Partial& o, const Partial& i) {
        return abstraction::contains(o.prev, i.prev) && abstraction::contains(o.done, i.done) &&
               abstraction::contains(o.sms, i.sms);
    }
    static std::int64_t distance(const Partial& a, const Partial& b) {
        return std::abs(a.prev.lo - b.prev.lo) + std::abs(a.prev.hi - b.prev.hi) + std::abs(a.done.hi - b.done.hi) +
               abstraction::distance(a.sms, b.sms);
    }
};

// A2 seen from a low-priority kernel's dispatch: the high-priority candidates' join instants.
// A low block dispatched at t means no high kernel had joined by t (t < every join); a high
// kernel that may have joined by the next block's instant may interrupt there.
struct Gate {
    std::int64_t next_join_lo = never;  // min join.lo over the high kernels that may be next (FIFO)
    std::int64_t join_hi = never;       // min join.hi over every high candidate
};

// A low kernel's dispatch cut (by the high kernel that comes next) with `blocks` of its blocks
// dispatched, a range where cuts were coalesced.
struct Interrupt {
    Interval blocks;
    std::int64_t latest_start = 0;  // the latest instant the next block could have started
    Partial at;                     // after the last dispatched block: prev = its start
};

// X1/R1-R3 for one kernel: its blocks after the `dispatched` ones, in index order, each at
// the earliest instant at which it fits on some SM, on any SM where it may fit then (docs/theory/semantics.md §5).
// Returns the possible ends. With a `gate` (two EE queues, rule A2), every block needs "no
// high kernel joined yet" and the cuts where one may have are appended to `interrupts`.
//
// `dispatched` may be a range (coalesced cuts): step i then places block dispatched + i of
// every run in the range at once. Blocks are identical in shape, so which index a block has
// does not matter, only the SM state does, and the start state contains every run's. A run
// with d blocks out has finished after step blocks - d - 1, so the ends are collected from the
// first step at which some run in the range finishes.
//
// `partial_cap` bounds the states kept per step (more are merged by hull). `concrete`: the
// lower-bound beam's point times, SM indices kept and each block's SM recorded, branches
// beyond the cap dropped instead of merged.
std::vector<Partial> dispatch_kernel(const Problem& p, Partial start, int k, Interval dispatched, int partial_cap,
                                     bool concrete, const Budget& budget, const Gate* gate,
                                     std::vector<Interrupt>* interrupts);

}  // namespace gpuwcrt::abstraction
