#pragma once
// An interval [lo, hi] of integer ticks (model/integer_time.hpp): every time of the
// abstraction is one. Transitions use only the monotone operations below, so that a concrete
// value inside its interval always maps to a result inside the result's interval.
#include <algorithm>
#include <compare>
#include <cstdint>
#include <limits>

namespace gpuwcrt::abstraction {

inline constexpr std::int64_t never = std::numeric_limits<std::int64_t>::max();  // no fit, ever

struct Interval {
    std::int64_t lo = 0, hi = 0;
    auto operator<=>(const Interval&) const = default;
    std::int64_t width() const { return hi - lo; }
};

inline Interval max_of(const Interval& a, const Interval& b) { return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)}; }
inline Interval plus(const Interval& a, const Interval& d) { return {a.lo + d.lo, a.hi + d.hi}; }
inline Interval hull(const Interval& a, const Interval& b) { return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)}; }
inline bool contains(const Interval& outer, const Interval& inner) {
    return outer.lo <= inner.lo && inner.hi <= outer.hi;
}

}  // namespace gpuwcrt::abstraction
