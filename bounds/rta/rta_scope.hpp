#pragma once
// Where the thesis RTA is exact (docs/theory/semantics.md §7) and how a workload maps onto "one big SM".
#include <cstdint>
#include <string>
#include <vector>

#include "model/workload.hpp"

namespace gpuwcrt {

// The one-big-SM view: a slot is `slot_threads` threads (the block size when there is one; the
// gcd of the block sizes otherwise, so that a block of b threads takes b / slot_threads slots),
// and the GPU has g_max = ⌊sms · threads_per_sm / slot_threads⌋ of them (thesis eq. 3.6).
struct OneBigSm {
    std::int64_t slot_threads = 1;
    std::int64_t g_max = 0;
    // blocks × slots per block; an InputError at the kernel when that exceeds 64 bits.
    std::int64_t slots_of(const Operation& kernel) const;
};
OneBigSm one_big_sm(const Workload& w);

// Why the RTA is only an approximation for this workload, one sentence per reason; empty when
// it is inside the thesis' exactness scope (then RTA(order) equals the simulator's completion
// times for that order — tests/test_rta_differential.cpp checks it). Distinct issue times are
// not a reason: the release-time extension is exact too (same test).
std::vector<std::string> rta_scope_reasons(const Workload& w);
// The scope word of the outputs ("rta_scope"): inside the thesis' exactness scope or not.
inline std::string rta_scope_name(bool exact) { return exact ? "exact" : "approximation"; }

}  // namespace gpuwcrt
