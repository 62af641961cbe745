#include "bounds/abstraction/state.hpp"

#include <algorithm>
#include <cstdlib>

namespace gpuwcrt::abstraction {
namespace {

std::int64_t gap(const Interval& a, const Interval& b) { return std::abs(a.lo - b.lo) + std::abs(a.hi - b.hi); }

}  // namespace

void free_ended(std::vector<SmState>& sms, std::int64_t certainly_after) {
    // Within each sorted segment the units with hi <= T are a prefix of hi and, being at most
    // T concretely, may be taken as free (0); lo's prefix of the same length then becomes 0 too
    // (lo <= hi componentwise keeps it sorted). Segments are not tracked here: setting any
    // entry whose hi <= T to 0 in both vectors keeps each segment sorted, since a sorted
    // segment's entries with hi <= T form its prefix and lo's prefix is below them.
    for (SmState& sm : sms)
        for (std::size_t u = 0; u < sm.units(); ++u)
            if (sm.hi(u) <= certainly_after && sm.hi(u) != 0) sm.hi(u) = 0, sm.lo(u) = 0;
}

void AbstractState::canonicalise(bool sort_sms) {
    free_ended(sms, ee_free.lo);
    if (sort_sms) std::sort(sms.begin(), sms.end());
}

AbstractState initial_state(int sms, int units, int copy_engines, int streams) {
    AbstractState x;
    x.engine_lo.assign(copy_engines, 0);
    x.engine_hi.assign(copy_engines, 0);
    x.sms.assign(sms, SmState{std::vector<std::int64_t>(2 * static_cast<std::size_t>(units), 0)});
    x.stream_issue.resize(streams);
    x.stream_done.resize(streams);
    return x;
}

std::vector<SmState> hull(const std::vector<SmState>& a, const std::vector<SmState>& b) {
    std::vector<SmState> out = a;
    for (std::size_t m = 0; m < a.size(); ++m)
        for (std::size_t u = 0; u < a[m].units(); ++u) {
            out[m].lo(u) = std::min(a[m].lo(u), b[m].lo(u));
            out[m].hi(u) = std::max(a[m].hi(u), b[m].hi(u));
        }
    std::sort(out.begin(), out.end());
    return out;
}

bool contains(const std::vector<SmState>& outer, const std::vector<SmState>& inner) {
    for (std::size_t m = 0; m < outer.size(); ++m)
        for (std::size_t u = 0; u < outer[m].units(); ++u)
            if (outer[m].lo(u) > inner[m].lo(u) || inner[m].hi(u) > outer[m].hi(u)) return false;
    return true;
}

std::int64_t distance(const std::vector<SmState>& a, const std::vector<SmState>& b) {
    std::int64_t d = 0;
    for (std::size_t m = 0; m < a.size(); ++m)
        for (std::size_t u = 0; u < a[m].v.size(); ++u) d += std::abs(a[m].v[u] - b[m].v[u]);
    return d;
}

AbstractState shifted(const AbstractState& x, std::int64_t delta) {
    AbstractState y = x;
    auto move = [delta](Interval& i) { i.lo += delta, i.hi += delta; };
    move(y.ee_free);
    move(y.ce_free);
    move(y.low_done);
    y.unit_lo += delta;
    for (std::int64_t& e : y.engine_lo) e += delta;
    for (std::int64_t& e : y.engine_hi) e += delta;
    for (SmState& sm : y.sms)
        for (std::int64_t& v : sm.v) v += delta;
    for (Interval& i : y.stream_issue) move(i);
    for (Interval& i : y.stream_done) move(i);
    y.canonicalise();
    return y;
}

AbstractState hull(const AbstractState& a, const AbstractState& b) {
    AbstractState x;
    x.ee_free = hull(a.ee_free, b.ee_free);
    x.ce_free = hull(a.ce_free, b.ce_free);
    x.engine_lo.resize(a.engine_lo.size());
    x.engine_hi.resize(a.engine_hi.size());
    for (std::size_t e = 0; e < a.engine_lo.size(); ++e) {  // sorted vectors: componentwise bounds
        x.engine_lo[e] = std::min(a.engine_lo[e], b.engine_lo[e]);
        x.engine_hi[e] = std::max(a.engine_hi[e], b.engine_hi[e]);
    }
    x.sms = hull(a.sms, b.sms);
    x.stream_issue.resize(a.stream_issue.size());
    x.stream_done.resize(a.stream_done.size());
    for (std::size_t s = 0; s < a.stream_issue.size(); ++s) {
        x.stream_issue[s] = hull(a.stream_issue[s], b.stream_issue[s]);
        x.stream_done[s] = hull(a.stream_done[s], b.stream_done[s]);
    }
    x.low_op = a.low_op;
    x.low_blocks = hull(a.low_blocks, b.low_blocks);
    x.low_done = hull(a.low_done, b.low_done);
    x.ee_after_low = a.ee_after_low && b.ee_after_low;
    x.unit_lo = std::min(a.unit_lo, b.unit_lo);
    x.canonicalise();
    return x;
}

bool contains(const AbstractState& outer, const AbstractState& inner) {
    if (!contains(outer.ee_free, inner.ee_free) || !contains(outer.ce_free, inner.ce_free) ||
        !contains(outer.low_done, inner.low_done) || !contains(outer.low_blocks, inner.low_blocks) ||
        (outer.ee_after_low && !inner.ee_after_low) || outer.unit_lo > inner.unit_lo)
        return false;
    for (std::size_t e = 0; e < outer.engine_lo.size(); ++e)
        if (outer.engine_lo[e] > inner.engine_lo[e] || inner.engine_hi[e] > outer.engine_hi[e]) return false;
    for (std::size_t s = 0; s < outer.stream_issue.size(); ++s)
        if (!contains(outer.stream_issue[s], inner.stream_issue[s]) ||
            !contains(outer.stream_done[s], inner.stream_done[s]))
            return false;
    return contains(outer.sms, inner.sms);
}

std::int64_t distance(const AbstractState& a, const AbstractState& b) {
    std::int64_t d = gap(a.ee_free, b.ee_free) + gap(a.ce_free, b.ce_free) + gap(a.low_done, b.low_done) +
                     distance(a.sms, b.sms) + std::abs(a.unit_lo - b.unit_lo);
    for (std::size_t e = 0; e < a.engine_lo.size(); ++e)
        d += std::abs(a.engine_lo[e] - b.engine_lo[e]) + std::abs(a.engine_hi[e] - b.engine_hi[e]);
    for (std::size_t s = 0; s < a.stream_issue.size(); ++s)
        d += gap(a.stream_issue[s], b.stream_issue[s]) + gap(a.stream_done[s], b.stream_done[s]);
    return d;
}

}  // namespace gpuwcrt::abstraction
