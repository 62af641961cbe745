#include "sim/contexts/time_slices.hpp"

#include <utility>

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

}  // namespace gpuwcrt::rules
