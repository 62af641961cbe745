#pragma once
// How often a stream's operations run (docs/theory/semantics.md §9): once, released at 0, or as a
// frame released again and again, periodically or sporadically.
#include <cstdint>

#include "model/interval.hpp"
#include "model/time.hpp"

namespace gpuwcrt {

struct Arrival {
    enum class Kind {
        none,      // one frame, released at 0: a stream as in docs/theory/semantics.md §3
        periodic,  // frame k released in [offset + k·period, offset + k·period + jitter]
        sporadic   // releases at least `period` (min_interarrival) apart, each with the jitter
    };
    Kind kind = Kind::none;
    Time period = 0;  // T > 0; for a sporadic stream its min_interarrival
    Time offset = 0;  // O >= 0
    Time jitter = 0;  // J >= 0
    bool repeats() const { return kind != Kind::none; }
    // Frame k's release window [O + kT, O + kT + J]: for a sporadic stream, the densest releases.
    Interval<Time> release(std::int64_t k) const { return {offset + period * k, offset + period * k + jitter}; }
};

// Whether `wait` may pair frame k of one stream with frame k of the other: both one frame, or
// both periodic with the same period. Sporadic frames are released independently, so their
// indices pair nothing.
inline bool frames_pair(const Arrival& a, const Arrival& b) {
    if (a.kind != b.kind) return false;
    if (a.kind == Arrival::Kind::none) return true;
    return a.kind == Arrival::Kind::periodic && a.period == b.period;
}

// Whether `wait` links two periodic streams of different periods: an operation then waits on
// the most recent frame of the other issued before it (cudaStreamWaitEvent on the event's last
// record), which the scenario decides, not the frame index.
inline bool waits_across_rates(const Arrival& a, const Arrival& b) {
    return a.kind == Arrival::Kind::periodic && b.kind == Arrival::Kind::periodic && a.period != b.period;
}

}  // namespace gpuwcrt
