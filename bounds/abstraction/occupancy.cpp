#include "bounds/abstraction/occupancy.hpp"

#include <algorithm>

namespace gpuwcrt::abstraction {

std::int64_t fit_instant(const Problem& p, const SmState& sm, int op, bool late, std::int64_t from) {
    const std::int64_t* v = sm.v.data() + (late ? sm.units() : 0);
    std::int64_t t = from;
    for (const Resource& r : p.resources) {
        const int need = r.need[op];
        if (need == 0) continue;
        if (need > r.units) return never;  // more than a whole SM
        t = std::max(t, v[r.offset + need - 1]);
    }
    return t;
}

void occupy(const Problem& p, SmState& sm, int op, const Interval& end) {
    for (const Resource& r : p.resources) {
        const int need = r.need[op];
        if (need == 0) continue;
        for (const std::size_t base : {std::size_t(0), sm.units()}) {
            const std::int64_t e = base == 0 ? end.lo : end.hi;
            const auto first = sm.v.begin() + static_cast<std::ptrdiff_t>(base) + r.offset, last = first + r.units;
            std::copy(first + need, last, first);                                     // the need smallest leave
            std::fill(last - need, last, e);                                          // and come back ending at e
            std::rotate(std::upper_bound(first, last - need, e), last - need, last);  // sorted again
        }
    }
}

}  // namespace gpuwcrt::abstraction
