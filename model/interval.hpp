#pragma once
// A closed interval [lo, hi]: the one range type of the tool. The input's ranges are intervals
// of rational time (TimeRange: block times, issue windows), the abstraction's times are intervals
// of integer ticks (model/integer_time.hpp), a command-line range is an interval of counts.
// The operations below are monotone in both ends, so a value inside its interval always maps to
// a result inside the result's interval; the abstraction's soundness rests on that.
#include <algorithm>
#include <compare>

namespace gpuwcrt {

template <class T>
struct Interval {
    T lo{}, hi{};
    bool operator==(const Interval&) const = default;
    // Deleted for a T without <=> (the rational time); the ordered containers of the abstraction
    // need it for ticks.
    auto operator<=>(const Interval&) const = default;
    T width() const { return hi - lo; }
    bool is_point() const { return !(lo < hi) && !(hi < lo); }
    bool contains(const T& v) const { return !(v < lo) && !(hi < v); }
};

template <class T>
Interval<T> max_of(const Interval<T>& a, const Interval<T>& b) {
    return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
}
template <class T>
Interval<T> plus(const Interval<T>& a, const Interval<T>& d) {
    return {a.lo + d.lo, a.hi + d.hi};
}
template <class T>
Interval<T> hull(const Interval<T>& a, const Interval<T>& b) {
    return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
}
template <class T>
bool contains(const Interval<T>& outer, const Interval<T>& inner) {
    return !(inner.lo < outer.lo) && !(outer.hi < inner.hi);
}

}  // namespace gpuwcrt
