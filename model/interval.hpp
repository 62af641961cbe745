#pragma once
// A closed interval [lo, hi]: the one range type of the tool. The input's ranges are intervals
// of rational time (TimeRange: block times, issue windows), the abstraction's times are intervals
// of integer ticks (model/integer_time.hpp), a command-line range is an interval of counts.
// The operations below are monotone in both ends, so a value inside its interval always maps to
// a result inside the result's interval; the abstraction's soundness rests on that.
#include <algorithm>
#include <compare>

#include "model/time_less.hpp"

namespace gpuwcrt {

// The order of the operations below: `<`, but for the rational time the exact order of
// model/time_less.hpp, as Boost's own `<` is far slower (it runs on every operation loaded).
template <class T>
bool interval_less(const T& a, const T& b) {
    return a < b;
}
inline bool interval_less(const Time& a, const Time& b) { return time_less(a, b); }

template <class T>
struct Interval {
    T lo{}, hi{};
    bool operator==(const Interval&) const = default;
    // Deleted for a T without <=> (the rational time); the ordered containers of the abstraction
    // need it for ticks.
    auto operator<=>(const Interval&) const = default;
    T width() const { return hi - lo; }
    bool is_point() const { return !interval_less(lo, hi) && !interval_less(hi, lo); }
    bool contains(const T& v) const { return !interval_less(v, lo) && !interval_less(hi, v); }
};

template <class T>
Interval<T> max_of(const Interval<T>& a, const Interval<T>& b) {
    const auto less = [](const T& x, const T& y) { return interval_less(x, y); };
    return {std::max(a.lo, b.lo, less), std::max(a.hi, b.hi, less)};
}
template <class T>
Interval<T> plus(const Interval<T>& a, const Interval<T>& d) {
    return {a.lo + d.lo, a.hi + d.hi};
}
template <class T>
Interval<T> hull(const Interval<T>& a, const Interval<T>& b) {
    const auto less = [](const T& x, const T& y) { return interval_less(x, y); };
    return {std::min(a.lo, b.lo, less), std::max(a.hi, b.hi, less)};
}
template <class T>
bool contains(const Interval<T>& outer, const Interval<T>& inner) {
    return !interval_less(inner.lo, outer.lo) && !interval_less(outer.hi, inner.hi);
}

}  // namespace gpuwcrt
