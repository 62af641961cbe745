#pragma once
// 128-bit integers for the occupancy integral's sums (blocked_work.cpp): its weights are
// fractions over the LCM of up to four rooms, each up to a per-SM capacity, so the sums fit 128
// bits on every realistic platform but not on every valid input (capacities up to 2^40). Every
// operation is checked; on overflow the caller computes again with arbitrary precision.
#include <stdexcept>

namespace gpuwcrt::interference {

using Wide = __int128;

struct WideOverflow : std::overflow_error {
    WideOverflow() : std::overflow_error("128-bit overflow") {}
};

inline Wide wide_mul(Wide a, Wide b) {
    Wide r;
    if (__builtin_mul_overflow(a, b, &r)) throw WideOverflow();
    return r;
}

inline Wide wide_add(Wide a, Wide b) {
    Wide r;
    if (__builtin_add_overflow(a, b, &r)) throw WideOverflow();
    return r;
}

}  // namespace gpuwcrt::interference
