#pragma once
// Exact integer time for the explicit engines (solver/exact/, bounds/abstraction/): every time
// of a workload scaled by the LCM of their denominators, so that states hold int64 ticks
// instead of rationals (a compare of two cpp_rational divides; the engines compare millions).
// Scaling is exact; a workload whose ticks would not fit is refused, never wrapped.
#include <cstdint>
#include <vector>

#include "model/workload.hpp"

namespace gpuwcrt {

// Every event time of any scenario is at most the horizon (the latest issue instant plus every
// duration and delay, all at their upper ends); kept far below 2^63 so that a sum of two event
// times, or a time plus a duration, never overflows.
inline constexpr std::int64_t max_ticks = std::int64_t(1) << 50;

struct IntegerTimes {
    std::int64_t scale = 1;                        // ticks per time unit
    std::vector<std::int64_t> lo, hi;              // per operation: block time (kernel) or duration (copy)
    std::vector<std::int64_t> issue_lo, issue_hi;  // IssueSpec::at (a window when lo < hi)
    std::vector<std::int64_t> delay;               // IssueSpec::delay (after_stream_idle)
    std::int64_t horizon = 0;

    Time to_time(std::int64_t ticks) const { return Time(ticks) / scale; }
};

// Throws InputError at the operation (or the workload's source) when the scale, a value or the
// horizon exceeds max_ticks.
IntegerTimes integer_times(const Workload& w);

}  // namespace gpuwcrt
