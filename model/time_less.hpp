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
    const BigInt &na = numerator_ref(a), &da = denominator_ref(a), &nb = numerator_ref(b), &db = denominator_ref(b);
    const auto sa = small_int(na), sda = small_int(da), sb = small_int(nb), sdb = small_int(db);
    if (sa && sda && sb && sdb) {  // exact: a product of two 63-bit integers fits in 127 bits
        const __int128 l = static_cast<__int128>(*sa) * *sdb, r = static_cast<__int128>(*sb) * *sda;
        return l < r ? -1 : l > r ? 1 : 0;
    }
    if (da == db) return na.compare(nb);
    return BigInt(na * db).compare(BigInt(nb * da));
}

inline bool time_less(const Time& a, const Time& b) { return time_compare(a, b) < 0; }
inline bool time_equal(const Time& a, const Time& b) { return time_compare(a, b) == 0; }

struct TimeLess {
    bool operator()(const Time& a, const Time& b) const { return time_less(a, b); }
};

}  // namespace gpuwcrt
