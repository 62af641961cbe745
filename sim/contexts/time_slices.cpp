#include "sim/contexts/time_slices.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include "model/rounding.hpp"

namespace gpuwcrt::rules {
namespace {

// T2 and T3: the running context leaves the engine; its blocks stop, keeping their remaining
// times and their room on its SMs.
void leave_engine(SimState& s) {
    SliceState& x = s.slices;
    FrozenContext& f = x.frozen[x.running];
    f.blocks.clear();
    for (auto& [end, blocks] : s.running_blocks) f.blocks.emplace_back(time_difference(end, s.now), std::move(blocks));
    s.running_blocks.clear();
    f.sm = s.sm;
    f.round_robin_last = s.round_robin_last;
    f.stopped = s.now;
    s.out.slices.push_back({x.running, x.held_since, s.now});
    x.last = x.running;
    x.running = -1;
}

// T4: the switch's context gets the engine, and its stopped blocks run on from where they were.
void enter_engine(SimState& s) {
    SliceState& x = s.slices;
    x.running = std::exchange(x.switching_to, -1);
    x.slice_start = x.held_since = s.now;
    s.out.switches.push_back({x.running, x.switch_start, s.now});
    FrozenContext& f = x.frozen[x.running];
    s.sm = f.sm;
    s.round_robin_last = f.round_robin_last;
    for (auto& [remaining, blocks] : f.blocks) {
        const Time end = time_sum(s.now, remaining);
        if (s.keep_blocks)
            for (const RunningBlock& b : blocks) s.out.blocks[static_cast<std::size_t>(b.record)].end = end;
        s.running_blocks.emplace(end, std::move(blocks));
    }
    f.blocks.clear();
}

// The first pending context in file order after `after` (cyclically), or -1.
int next_pending(const SimState& s, int after) {
    const int n = static_cast<int>(s.slices.pending.size());
    for (int i = 1; i <= n; ++i) {
        const int c = ((after < 0 ? -1 : after) + i) % n;
        if (s.slices.pending[c] > 0) return c;
    }
    return -1;
}

// Whether the running context's slice ends now; a slice that ended earlier with no other
// context pending was followed by a new one (T2), whose start this moves to.
bool slice_ends_now(SimState& s) {
    SliceState& x = s.slices;
    const Time& length = s.w.contexts[x.running].timeslice;
    const Time elapsed = time_difference(s.now, x.slice_start);
    if (elapsed < length) return false;
    const Time q = elapsed / length;
    const BigInt whole = boost::multiprecision::numerator(q) / boost::multiprecision::denominator(q);
    x.slice_start = time_sum(x.slice_start, length * Time(whole));
    return time_equal(x.slice_start, s.now) && s.another_pending(x.running);
}

}  // namespace

bool t1_t4_time_slices(SimState& s) {
    SliceState& x = s.slices;
    if (!x.on) return false;
    bool changed = false;
    if (x.switching_to >= 0) {
        if (!time_equal(x.switch_end, s.now)) return false;
        enter_engine(s);
        changed = true;
    }
    if (x.running >= 0 && (x.pending[x.running] == 0 || slice_ends_now(s))) {
        leave_engine(s);
        changed = true;
    }
    if (x.running < 0) {
        const int next = next_pending(s, x.last);
        if (next < 0) return changed;
        // Always paid, also when the engine was idle or goes back to the context that ran
        // last: the larger delay, so no verdict rests on a switch being free
        // (docs/decisions/0028-gpu-contexts.md).
        x.switching_to = next;
        x.switch_start = s.now;
        x.switch_end = time_sum(s.now, s.w.platform.context_switch);
        return t1_t4_time_slices(s) || true;
    }
    return changed;
}

// Between two issues or completions the pending contexts stay the same, and only switch ends and
// slice ends happen. A pending context with a block in flight keeps the engine for a whole slice
// each time it runs (it stays pending) and gets it once per round of at most n slices, so one of
// its blocks completes within ceil(G / L_min) + 1 of its slices, G the longest block. A pending
// context with none dispatches when it runs, or its kernel waits for a copy, which runs in real
// time and ends within the longest copy, while at most one slice of L_min or more ends per
// L_min. So at most (n + 1) · (ceil(G' / L_min) + 2) slices pass, G' the longest block plus the
// longest copy, each one slice end and one switch end; twice that is the limit, so that a run
// of the rules as stated never reaches it.
std::int64_t slice_events_without_progress(const Workload& w) {
    Time longest_block = 0, longest_copy = 0;
    for (const Operation& op : w.ops) {
        Time& longest = op.is_kernel() ? longest_block : longest_copy;
        longest = std::max(longest, op.time.hi, TimeLess{});
    }
    Time shortest_slice = w.contexts.empty() ? Time(1) : w.contexts.front().timeslice;
    for (const GpuContext& c : w.contexts) shortest_slice = std::min(shortest_slice, c.timeslice, TimeLess{});
    const BigInt slices =
        (BigInt(w.contexts.size()) + 1) * (ceil_of((longest_block + longest_copy) / shortest_slice) + 2);
    const BigInt limit = 4 * slices;
    const BigInt most = std::numeric_limits<std::int64_t>::max();
    return static_cast<std::int64_t>(limit < most ? limit : most);
}

}  // namespace gpuwcrt::rules
