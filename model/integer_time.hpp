#pragma once
// Exact integer time: times scaled by the LCM of their denominators are integers ("ticks"), so
// that engines compare int64 instead of rationals (a compare of two cpp_rational divides; the
// engines compare millions). scale_times is the one place times become ticks, fits_ticks the one
// overflow rule; every integer view of a workload (the explicit engines' IntegerTimes below, the
// SMT engine's BlockProblem, the RTA and its search over orders) is built from them. Scaling is
// exact; a value that does not fit is refused, never wrapped.
#include <cstdint>
#include <optional>
#include <vector>

#include "model/workload.hpp"

namespace gpuwcrt {

// Every instant a view reaches is at most its horizon (the latest issue or release plus every
// duration, at the upper ends); kept far below 2^63 so that a sum of two instants, a time plus a
// duration, or a sum of many durations of the SMT encoding never overflows.
inline constexpr std::int64_t max_ticks = std::int64_t(1) << 50;

// The overflow rule: a tick count (a scaled time, a scale, a horizon) fits when 0 <= n <= max_ticks.
bool fits_ticks(const BigInt& n);

struct ScaledTimes {
    BigInt scale = 1;           // ticks per time unit: the LCM of the denominators
    std::vector<BigInt> ticks;  // parallel to the times scaled: each times scale, an integer

    // ticks[i] when it fits, else nullopt.
    std::optional<std::int64_t> fitting(std::size_t i) const;
};
ScaledTimes scale_times(const std::vector<Time>& times);

// The times a workload's scenarios are built from, seven per operation: the block time (kernel)
// or duration (copy), the issue instant (window), the delay, and the release window of an
// unrolled frame's `after_stream_idle` ([0, 0] without one). Scaled together, they give the tick
// grid the explicit engines, the enumeration and the SMT engine range over.
enum class OpTime : std::size_t { lo, hi, issue_lo, issue_hi, delay, release_lo, release_hi };
std::vector<Time> workload_times(const Workload& w);
// The index of operation op's time `t` in workload_times.
inline std::size_t workload_time_index(std::size_t op, OpTime t) { return 7 * op + static_cast<std::size_t>(t); }

struct IntegerTimes {
    std::int64_t scale = 1;                            // ticks per time unit
    std::vector<std::int64_t> lo, hi;                  // per operation: block time (kernel) or duration (copy)
    std::vector<std::int64_t> issue_lo, issue_hi;      // IssueSpec::at (a window when lo < hi)
    std::vector<std::int64_t> delay;                   // IssueSpec::delay (after_stream_idle)
    std::vector<std::int64_t> release_lo, release_hi;  // IssueSpec::release ([0, 0] without one)
    std::int64_t horizon = 0;

    Time to_time(std::int64_t ticks) const { return Time(ticks) / scale; }
};

// The explicit engines' (solver/exact/, bounds/abstraction/) view. Throws InputError at the
// operation (or the workload's source) when the scale, a value or the horizon does not fit.
IntegerTimes integer_times(const Workload& w);

}  // namespace gpuwcrt
