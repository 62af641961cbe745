#include "solver/abstraction/state.hpp"

#include <algorithm>
#include <cstdlib>

namespace gpuwcrt::abstraction {
namespace {

// Blocks of one class on one SM, paired in sorted order; the shorter list is padded at its
// front with ended blocks ([0, 0]), whose hull with [lo, hi] is [0, hi].
void hull_class(const std::vector<RunningBlock>& a, const std::vector<RunningBlock>& b, int cls,
                std::vector<RunningBlock>& out) {
    std::vector<Interval> x, y;
    for (const RunningBlock& r : a)
        if (r.demand_class == cls) x.push_back(r.end);
    for (const RunningBlock& r : b)
        if (r.demand_class == cls) y.push_back(r.end);
    if (x.size() < y.size()) x.insert(x.begin(), y.size() - x.size(), Interval{0, 0});
    if (y.size() < x.size()) y.insert(y.begin(), x.size() - y.size(), Interval{0, 0});
    for (std::size_t i = 0; i < x.size(); ++i) out.push_back({cls, hull(x[i], y[i])});
}

SmBlocks hull_sm(const SmBlocks& a, const SmBlocks& b) {
    std::vector<int> classes;
    for (const auto* s : {&a, &b})
        for (const RunningBlock& r : s->blocks) classes.push_back(r.demand_class);
    std::sort(classes.begin(), classes.end());
    classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
    SmBlocks out;
    for (int c : classes) hull_class(a.blocks, b.blocks, c, out.blocks);
    std::sort(out.blocks.begin(), out.blocks.end());
    return out;
}

bool contains_sm(const SmBlocks& outer, const SmBlocks& inner) {
    if (outer.blocks.size() != inner.blocks.size()) return false;
    for (std::size_t i = 0; i < outer.blocks.size(); ++i)
        if (outer.blocks[i].demand_class != inner.blocks[i].demand_class ||
            !contains(outer.blocks[i].end, inner.blocks[i].end))
            return false;
    return true;
}

}  // namespace

void drop_ended(std::vector<SmBlocks>& sms, std::int64_t certainly_after) {
    for (SmBlocks& sm : sms)
        std::erase_if(sm.blocks, [&](const RunningBlock& b) { return b.end.hi <= certainly_after; });
}

void sort_sms(std::vector<SmBlocks>& sms) {
    for (SmBlocks& sm : sms) std::sort(sm.blocks.begin(), sm.blocks.end());
    std::sort(sms.begin(), sms.end());
}

void AbstractState::canonicalise() {
    drop_ended(sms, ee_free.lo);
    sort_sms(sms);
}

AbstractState initial_state(int sms, int copy_engines, int streams) {
    AbstractState x;
    x.engine_lo.assign(copy_engines, 0);
    x.engine_hi.assign(copy_engines, 0);
    x.sms.resize(sms);
    x.stream_issue.resize(streams);
    x.stream_done.resize(streams);
    return x;
}

std::vector<SmBlocks> hull(const std::vector<SmBlocks>& a, const std::vector<SmBlocks>& b) {
    std::vector<SmBlocks> out(a.size());
    for (std::size_t m = 0; m < a.size(); ++m) out[m] = hull_sm(a[m], b[m]);
    std::sort(out.begin(), out.end());
    return out;
}

bool contains(const std::vector<SmBlocks>& outer, const std::vector<SmBlocks>& inner) {
    for (std::size_t m = 0; m < outer.size(); ++m)
        if (!contains_sm(outer[m], inner[m])) return false;
    return true;
}

std::int64_t distance(const std::vector<SmBlocks>& a, const std::vector<SmBlocks>& b) {
    std::int64_t d = 0;
    for (std::size_t m = 0; m < a.size(); ++m) {
        const auto& x = a[m].blocks;
        const auto& y = b[m].blocks;
        std::size_t i = 0, j = 0;
        while (i < x.size() || j < y.size()) {  // both sorted by class, then end
            if (j == y.size() || (i < x.size() && x[i].demand_class < y[j].demand_class)) d += x[i++].end.hi;
            else if (i == x.size() || y[j].demand_class < x[i].demand_class) d += y[j++].end.hi;
            else {
                d += std::abs(x[i].end.lo - y[j].end.lo) + std::abs(x[i].end.hi - y[j].end.hi);
                ++i, ++j;
            }
        }
    }
    return d;
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
    x.canonicalise();
    return x;
}

bool contains(const AbstractState& outer, const AbstractState& inner) {
    if (!contains(outer.ee_free, inner.ee_free) || !contains(outer.ce_free, inner.ce_free)) return false;
    for (std::size_t e = 0; e < outer.engine_lo.size(); ++e)
        if (outer.engine_lo[e] > inner.engine_lo[e] || inner.engine_hi[e] > outer.engine_hi[e]) return false;
    for (std::size_t s = 0; s < outer.stream_issue.size(); ++s)
        if (!contains(outer.stream_issue[s], inner.stream_issue[s]) ||
            !contains(outer.stream_done[s], inner.stream_done[s]))
            return false;
    return contains(outer.sms, inner.sms);
}

namespace {
std::int64_t gap(const Interval& a, const Interval& b) { return std::abs(a.lo - b.lo) + std::abs(a.hi - b.hi); }
}  // namespace

std::int64_t distance(const AbstractState& a, const AbstractState& b) {
    std::int64_t d = gap(a.ee_free, b.ee_free) + gap(a.ce_free, b.ce_free) + distance(a.sms, b.sms);
    for (std::size_t e = 0; e < a.engine_lo.size(); ++e)
        d += std::abs(a.engine_lo[e] - b.engine_lo[e]) + std::abs(a.engine_hi[e] - b.engine_hi[e]);
    for (std::size_t s = 0; s < a.stream_issue.size(); ++s)
        d += gap(a.stream_issue[s], b.stream_issue[s]) + gap(a.stream_done[s], b.stream_done[s]);
    return d;
}

}  // namespace gpuwcrt::abstraction
