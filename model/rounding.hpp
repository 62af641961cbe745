#pragma once
// The integers next to an exact time: its floor and its ceiling. Boost's integer division
// truncates toward zero, which is neither for a negative time.
#include "model/time.hpp"

namespace gpuwcrt {

inline BigInt floor_of(const Time& t) {
    const BigInt& n = numerator_ref(t);
    const BigInt& d = denominator_ref(t);
    BigInt q = n / d;
    if (n < 0 && q * d != n) q -= 1;
    return q;
}

inline BigInt ceil_of(const Time& t) {
    const BigInt& n = numerator_ref(t);
    const BigInt& d = denominator_ref(t);
    BigInt q = n / d;
    if (n > 0 && q * d != n) q += 1;
    return q;
}

}  // namespace gpuwcrt
