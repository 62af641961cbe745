#pragma once
// The abstract state at a dispatch boundary (docs/theory/abstraction.md, "Concretisation"). It stands
// for every concrete simulator state, reached after the operations of its key S were
// dispatched (kernels fully, copies started), in which each time lies in its interval.
#include <array>
#include <cstdint>
#include <vector>

#include "bounds/abstraction/interval.hpp"
#include "bounds/abstraction/op_set.hpp"
#include "common/hash_words.hpp"

namespace gpuwcrt::abstraction {

// The key of the exploration: S, and with two EE queues the low-priority kernel whose dispatch
// a high-priority one interrupted (A2). The explorer leaves `low_blocks` 0: how many of its
// blocks are out is a range in the state, so cuts of one kernel at different blocks merge. The
// lower-bound beam, whose states are concrete, keys on the count. States are merged only
// within one key (docs/theory/abstraction.md, "Priorities").
struct Key {
    OpSet s{};
    int low_op = -1;
    int low_blocks = 0;
    bool operator==(const Key&) const = default;
};
struct KeyHash {
    std::size_t operator()(const Key& k) const {
        const auto& [w0, w1] = k.s.inline_words();
        const auto low_op = static_cast<std::uint64_t>(k.low_op), low_blocks = static_cast<std::uint64_t>(k.low_blocks);
        if (k.s.heap_words().empty())  // no allocation for keys of at most 128 operations
            return static_cast<std::size_t>(hash_words(std::array<std::uint64_t, 4>{w0, w1, low_op, low_blocks}));
        std::vector<std::uint64_t> words{w0, w1};
        words.insert(words.end(), k.s.heap_words().begin(), k.s.heap_words().end());
        words.push_back(low_op);
        words.push_back(low_blocks);
        return static_cast<std::size_t>(hash_words(words));
    }
};

// One SM as resource availability: for every unit of every resource (Problem::resources), the
// instant it is free again (0: free), each resource's segment sorted. A concrete SM is in it
// when its sorted availability vector lies between `lo` and `hi` componentwise. Which block
// holds a unit does not matter: fit depends only on the per-resource sums (R1-R3, registers,
// resident blocks), and units free at a dispatch instant are interchangeable from then on.
struct SmState {
    std::vector<std::int64_t> v;  // the lo vector, then the hi vector (one allocation: states are copied a lot)
    std::size_t units() const { return v.size() / 2; }
    std::int64_t& lo(std::size_t u) { return v[u]; }
    std::int64_t& hi(std::size_t u) { return v[units() + u]; }
    std::int64_t lo(std::size_t u) const { return v[u]; }
    std::int64_t hi(std::size_t u) const { return v[units() + u]; }
    auto operator<=>(const SmState&) const = default;
};

// Everything of an abstract state but its SMs. A kernel's dispatch builds the SMs anew and takes
// the rest from the state it leaves by one assignment (AbstractState::rest), so a field added
// here is carried over with the others.
struct StateButSms {
    Interval ee_free;                                // when the last dispatched kernel became fully dispatched (G3, X1)
    Interval ce_free;                                // when the last started copy started (the CE queue is FIFO)
    std::vector<std::int64_t> engine_lo, engine_hi;  // copy engines' end times, each sorted
    std::vector<Interval> stream_issue, stream_done;  // per stream: its last dispatched operation's
    // A2: a low-priority kernel interrupted between two blocks by a high-priority one (at most
    // one: only the low queue's head dispatches). Its op is part of the Key.
    int low_op = -1;
    Interval low_blocks{0, 0};  // how many of its blocks are dispatched (>= 1 when low_op >= 0)
    Interval low_done;          // the hull of its dispatched blocks' ends
    std::vector<int> low_sm;    // concrete mode (beam) only: the SM of each dispatched block
    // Two EE queues: the last EE dispatch was a low block (at ee_free). Every high kernel
    // dispatched next joined after it (A2), which bounds that kernel's head instant by its join.
    bool ee_after_low = false;
    // A lower bound on the instant T of the last dispatch unit on the path (docs/theory/abstraction.md,
    // "Why every concrete run follows a path"): a copy after it starts no earlier.
    std::int64_t unit_lo = 0;

    bool operator==(const StateButSms&) const = default;
};

struct AbstractState : StateButSms {
    std::vector<SmState> sms;  // sorted: SMs are interchangeable

    StateButSms& rest() { return *this; }
    const StateButSms& rest() const { return *this; }
    bool operator==(const AbstractState&) const = default;

    // Marks units certainly free when the next kernel can start as free (hi <= ee_free.lo: a
    // block ending at t releases its room before dispatch at t) and sorts the SMs (unless
    // `sort_sms` is false: the lower-bound beam keeps SM indices for its witnesses).
    void canonicalise(bool sort_sms = true);
};

AbstractState initial_state(int sms, int units, int copy_engines, int streams);

// The hull: every interval (and every sorted vector componentwise) widened to contain both.
AbstractState hull(const AbstractState& a, const AbstractState& b);
bool contains(const AbstractState& outer, const AbstractState& inner);
// How far apart two states are (sum of the differences of their bounds): the partner a full
// bucket merges a new state into.
std::int64_t distance(const AbstractState& a, const AbstractState& b);

// Every time of the state plus `delta` (>= 0): the state shifted later. Where the future is
// translation-invariant (Problem::translation_invariant) every response from it is at least
// the unshifted state's (docs/theory/abstraction.md, "Time-shift merging").
AbstractState shifted(const AbstractState& x, std::int64_t delta);

// The same for the SMs alone (used within one kernel's dispatch).
std::vector<SmState> hull(const std::vector<SmState>& a, const std::vector<SmState>& b);
bool contains(const std::vector<SmState>& outer, const std::vector<SmState>& inner);
std::int64_t distance(const std::vector<SmState>& a, const std::vector<SmState>& b);
void free_ended(std::vector<SmState>& sms, std::int64_t certainly_after);

}  // namespace gpuwcrt::abstraction
