#pragma once
// The abstract state at a dispatch boundary (docs/abstraction.md, "Concretisation"). It stands
// for every concrete simulator state, reached after the operations of its key S were
// dispatched (kernels fully, copies started), in which each time lies in its interval.
#include <array>
#include <cstdint>
#include <vector>

#include "solver/abstraction/interval.hpp"

namespace gpuwcrt::abstraction {

// The key S: which operations are dispatched (kernels fully, copies started).
using OpSet = std::array<std::uint64_t, 2>;
inline bool has(const OpSet& s, int op) { return (s[op >> 6] >> (op & 63)) & 1u; }
inline OpSet with(OpSet s, int op) {
    s[op >> 6] |= std::uint64_t(1) << (op & 63);
    return s;
}
struct OpSetHash {
    std::size_t operator()(const OpSet& s) const { return s[0] * 0x9e3779b97f4a7c15ULL ^ (s[1] + (s[1] << 17)); }
};

// A block that may still run: its demand class and the interval of its end. A block known to
// have ended is dropped; a hull with "no block" widens the end down to 0 (already released).
struct RunningBlock {
    int demand_class = 0;
    Interval end;
    auto operator<=>(const RunningBlock&) const = default;
};

struct SmBlocks {
    std::vector<RunningBlock> blocks;  // sorted
    auto operator<=>(const SmBlocks&) const = default;
};

struct AbstractState {
    Interval ee_free;   // when the last dispatched kernel became fully dispatched (G3, X1)
    Interval ce_free;   // when the last started copy started (the CE queue is FIFO)
    std::vector<std::int64_t> engine_lo, engine_hi;  // copy engines' end times, each sorted
    std::vector<SmBlocks> sms;                        // sorted: SMs are interchangeable
    std::vector<Interval> stream_issue, stream_done;  // per stream: its last dispatched operation's

    bool operator==(const AbstractState&) const = default;

    // Drops blocks certainly ended when the next kernel can start (end.hi <= ee_free.lo: a
    // block ending at t releases its room before dispatch at t) and sorts blocks and SMs.
    void canonicalise();
};

AbstractState initial_state(int sms, int copy_engines, int streams);

// The hull: contains every concrete state of both (per SM and demand class, blocks paired in
// sorted order, the shorter list padded with already-ended blocks).
AbstractState hull(const AbstractState& a, const AbstractState& b);
// Whether every concrete state of `inner` is one of `outer` (a sufficient test: same block
// counts per SM and class, every interval inside).
bool contains(const AbstractState& outer, const AbstractState& inner);
// How far apart two states are (sum of the differences of their bounds; blocks that have no
// partner cost their end): the partner a full bucket merges a new state into.
std::int64_t distance(const AbstractState& a, const AbstractState& b);

// The same for the per-SM blocks alone (used within one kernel's dispatch).
std::vector<SmBlocks> hull(const std::vector<SmBlocks>& a, const std::vector<SmBlocks>& b);
bool contains(const std::vector<SmBlocks>& outer, const std::vector<SmBlocks>& inner);
std::int64_t distance(const std::vector<SmBlocks>& a, const std::vector<SmBlocks>& b);
void drop_ended(std::vector<SmBlocks>& sms, std::int64_t certainly_after);
void sort_sms(std::vector<SmBlocks>& sms);

}  // namespace gpuwcrt::abstraction
