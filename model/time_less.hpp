#pragma once
// A faster exact order on Time for hot loops (event queues, sorts). The rational type's own
// operator< (and ==, !=, which Boost 1.74 builds from two of them) takes a continued-fraction
// path with divisions, which dominates simulate and rta on large workloads. Denominators are kept
// positive and in lowest terms, so cross-multiplication is exact and equal values have equal
// numerators and denominators.
#include "model/time.hpp"

namespace gpuwcrt {

// <0, 0 or >0 as a < b, a == b, a > b.
inline int time_compare(const Time& a, const Time& b) {
    const BigInt da = denominator(a), db = denominator(b);
    if (da == db) return numerator(a).compare(numerator(b));
    return BigInt(numerator(a) * db).compare(BigInt(numerator(b) * da));
}

inline bool time_less(const Time& a, const Time& b) { return time_compare(a, b) < 0; }
inline bool time_equal(const Time& a, const Time& b) { return time_compare(a, b) == 0; }

struct TimeLess {
    bool operator()(const Time& a, const Time& b) const { return time_less(a, b); }
};

}  // namespace gpuwcrt
