#pragma once
// Command-line values of `warp` and `warp-sweep`, parsed here rather than by CLI11 so that
// every bad value gets the one CLI error format ("gpuwcrt: --threads: must be a positive
// integer, got 0", exit 3) and nothing is silently clamped, truncated or reinterpreted.
#include <chrono>
#include <string>

#include "model/interval.hpp"

namespace gpuwcrt::app {

// A decimal integer in 1..most (no sign, no exponent, no spaces); `why_most` says where the
// limit comes from.
long long positive_integer(const std::string& option, const std::string& text, long long most,
                           const std::string& why_most = "");

// Seconds as a decimal ("5", "0.25"), more than 0 and at most 10^6; exact (no floating point),
// rounded up to whole milliseconds.
std::chrono::milliseconds positive_seconds(const std::string& option, const std::string& text);

// FIRST:LAST[:STEP] of positive integers up to `most`, FIRST <= LAST (STEP only if allowed).
struct IntegerRange {
    Interval<long long> span{1, 1};
    long long step = 1;
    long long count() const { return span.width() / step + 1; }
    long long last_point() const { return span.lo + (count() - 1) * step; }
};
IntegerRange positive_range(const std::string& option, const std::string& text, bool with_step, long long most,
                            const std::string& why_most = "");

}  // namespace gpuwcrt::app
