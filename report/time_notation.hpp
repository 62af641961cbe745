#pragma once
// One notation for the times shown together in a table column (docs/reference/outputs.md, "Reading the tables"):
// every value that is a decimal with at most max_fraction_digits digits after the point is
// written with the same number of such digits ("0.50", "1.25", "3.00"), so that right-aligned
// points line up; a value that is not (1/3, or 2^-21) is its exact fraction ("1/3") alone, and
// the rest of the column stays decimal. Either way the text is the exact value: nothing is
// rounded.
#include <string>
#include <vector>

#include "model/time.hpp"

namespace gpuwcrt {

// Beyond this a decimal is harder to read than the fraction (1/3 would never end anyway).
constexpr int max_fraction_digits = 12;

struct TimeNotation {
    int fraction_digits = 0;  // digits after the point of every decimal value
};

// A time's text before its column's notation is known, so that a table keeps a few bytes per
// time rather than the rational: its decimal with its own digits after the point ("1.5"), or,
// with digits < 0, its exact fraction ("1/3"), which every notation writes as it is.
struct TimeText {
    std::string text;
    int digits = -1;
};
TimeText time_text(const Time& t);

TimeNotation notation_for(const std::vector<Time>& values);
// Widens `notation` so that it also writes a time of `digits` (notation_for is this over every value).
void widen_notation(TimeNotation& notation, int digits);
std::string format_time(const Time& t, const TimeNotation& notation);
// format_time of the time `t` stands for, in a notation widened by it.
std::string format_time(const TimeText& t, const TimeNotation& notation);

}  // namespace gpuwcrt
