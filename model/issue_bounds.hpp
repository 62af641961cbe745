#pragma once
// What is known about each operation's issue instant before a run (docs/theory/semantics.md §3): the
// one place that decides when one operation is surely issued before another, so that a launch
// order must put it first (§5). The enumeration generates launch orders with it, launch_ranks
// checks explicit orders (--order, [scenario] order, witness files) with it, and the SMT
// engine's integer view takes its earliest and fixed issue instants from it.
#include <optional>
#include <vector>

#include "model/integer_time.hpp"
#include "model/workload.hpp"

namespace gpuwcrt {

// Bounds on one operation's issue instant that hold in every run, in T (Time or ticks).
template <class T>
struct IssueBounds {
    T lo{};               // no run issues the operation earlier
    std::optional<T> hi;  // every run issues it by then; none when only the run decides it
    bool fixed() const { return hi && !(lo < *hi); }
};

// Only a surely earlier operation must come first in a launch order: any other pair can tie
// (docs/theory/semantics.md §5), including an absolute `issue = t` that the host reaches only after an
// after_stream_idle predecessor and that is then issued later than t (§3).
template <class T>
bool surely_issued_before(const IssueBounds<T>& x, const IssueBounds<T>& o) {
    return x.hi && *x.hi < o.lo;
}

// Each stream in list order, as the simulator issues it (sim/rules.cpp predecessor_issued,
// operation_completed, sim/simulate.cpp seed_first_issues), with `time(op, field)` the
// operation's time `field` in T:
//  - a stream's first operation: its window, or the delay after_stream_idle waits from 0;
//  - with_previous: the predecessor's bounds;
//  - `issue = [lo, hi]`: max of the window and the predecessor's instant, so it is known before
//    the run only when the predecessor's instant is;
//  - after_stream_idle: the predecessor's completion + delay, decided by the run; no earlier
//    than the predecessor's earliest issue + its shortest duration + delay, nor than an unrolled
//    frame's release + delay (its first operation: the release window + delay).
template <class T, class TimeOf>
std::vector<IssueBounds<T>> issue_bounds(const Workload& w, TimeOf time) {
    std::vector<IssueBounds<T>> out(w.ops.size());
    std::vector<int> last(w.streams.size(), -1);  // each stream's operation seen last
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        const IssueSpec::Kind kind = w.ops[i].issue.kind;
        const int prev = last[w.ops[i].stream];
        last[w.ops[i].stream] = static_cast<int>(i);
        IssueBounds<T>& b = out[i];
        if (prev < 0 && kind == IssueSpec::Kind::after_stream_idle) {  // from its frame's release, or 0
            b.lo = time(i, OpTime::release_lo) + time(i, OpTime::delay);
            b.hi = time(i, OpTime::release_hi) + time(i, OpTime::delay);
        } else if (prev < 0) {
            b.lo = time(i, OpTime::issue_lo);
            b.hi = time(i, OpTime::issue_hi);
        } else if (kind == IssueSpec::Kind::with_previous) {
            b = out[prev];
        } else if (kind == IssueSpec::Kind::at) {
            const T lo = time(i, OpTime::issue_lo), hi = time(i, OpTime::issue_hi);
            b.lo = out[prev].lo < lo ? lo : out[prev].lo;
            if (out[prev].hi) b.hi = *out[prev].hi < hi ? hi : *out[prev].hi;
        } else {  // max(its frame's release, the predecessor's completion) + delay
            const T idle = out[prev].lo + time(static_cast<std::size_t>(prev), OpTime::lo);
            const T release = time(i, OpTime::release_lo);
            b.lo = (idle < release ? release : idle) + time(i, OpTime::delay);
        }
    }
    return out;
}

// The bounds in exact time.
std::vector<IssueBounds<Time>> issue_bounds(const Workload& w);

}  // namespace gpuwcrt
