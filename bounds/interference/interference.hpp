#pragma once
// A compositional upper bound on every operation's response time (docs/theory/interference.md): along
// each stream, an operation waits in the EE or CE queue at most as long as the work that can
// hold the GPU meanwhile takes, and that work is at most one operation per other stream plus
// the higher-priority kernels that arrive while it waits. Its cost follows operations, not
// blocks or scenarios: milliseconds where the abstraction's keys grow like
// (operations per stream)^streams.
#include <optional>
#include <vector>

#include "common/budget.hpp"
#include "model/workload.hpp"

namespace gpuwcrt {

// Test-only: removes one ingredient of the argument, so that a test can show that the
// differential tests catch an unsound bound. Never set outside tests/test_interference.cpp.
enum class InterferenceMutation {
    none,
    no_carry_in,        // kernels of other streams running or queued when the operation joins are ignored
    higher_once,        // a higher-priority stream counts one kernel, not every kernel that can arrive
    no_own_blocks,      // the operation's own earlier blocks are not counted as occupying the SMs
    no_higher_heads,    // in the split by heads, the time a higher-priority kernel heads is dropped
    half_waves,         // a kernel's earliest completion assumes half as many blocks at once
    no_higher_tails,    // in the split by heads, a higher-priority kernel's last running blocks are dropped
    no_solo_others,     // in the split by head identity, the time other kernels head is dropped
    no_heading_carry,   // a kernel's heading time leaves out the blocks running when it became the head
    no_foreign_blocks,  // in the split by head identity, the instants other kernels' blocks run are dropped
    no_wait,            // an operation joins its queue without waiting for the operations it waits on
};

// The upper ends of one operation that the sweeps over the others read: its issue, join and
// completion instants, its wait for its stream (join − issue), its response, its wait in the
// queue and, for a kernel, the part of that wait at which it heads. Pinned from outside, they
// are an earlier hyperperiod's frame whose bounds another run proved (docs/theory/all-time.md).
struct UpperEnds {
    Time issue, join, done, behind;
    std::optional<Time> response;
    Time wait, solo;
};

struct InterferenceOptions {
    int max_sweeps = 64;  // the bounds only tighten; a sweep that changes nothing ends early
    // Segments ending at an operation start at the stream's first operation and at the
    // operations up to this many before it (docs/theory/interference.md, "Segments"); those that cannot
    // tighten a bound are not computed ("At thousands of operations").
    int max_segment = 16;
    InterferenceMutation mutation = InterferenceMutation::none;
    // Per operation (empty: none): upper ends taken as proven, never tightened; every other
    // operation's bounds hold in every scenario in which these do.
    std::vector<std::optional<UpperEnds>> pinned;
    // Tests: the occupancy integral's sums with arbitrary precision only (the same values as the
    // checked 128-bit sums); candidates by each kernel's own completion end rather than its
    // stream's latest (looser or equal bounds); every segment computed, also those that cannot
    // tighten a bound (the same bounds).
    bool exact_arithmetic = false;
    bool scan_candidates = false;
    bool every_segment = false;
};

struct InterferenceBounds {
    // Per operation: a proven upper bound on its response time; none when the workload is out of
    // the argument's scope (a NULL stream: N1/N2 let a kernel wait for operations of every
    // stream; times that do not fit integer ticks).
    std::vector<std::optional<Time>> response;
    // Per operation: a proven upper bound on its completion instant (none out of scope).
    std::vector<std::optional<Time>> done;
    std::vector<UpperEnds> ends;  // per operation: every upper end the sweeps hold (what `pinned` takes)
    int sweeps = 0;               // passes over the operations until none changed
    bool stopped = false;         // the budget ran out first: every bound is still proven, maybe looser
};

// Every value the sweeps hold is proven at every moment, so the budget may stop them anywhere.
InterferenceBounds interference_bounds(const Workload& w, const Budget& budget, const InterferenceOptions& o = {});

}  // namespace gpuwcrt
