#pragma once
// One notation for the times shown together in a table column (docs/reference/outputs.md, "Reading the tables"):
// every value is written with the same number of digits after the point ("0.50", "1.25",
// "3.00"), so that right-aligned points line up. By default a value with at most
// rounded_fraction_digits digits after the point is exact, and any other (1/3, 2^-21) is rounded
// to rounded_fraction_digits digits in the direction its cell asks for: an upper bound up, a
// lower bound down, any other time to the nearest (docs/decisions/0026-decimal-output.md). With
// exact times (--exact) nothing is rounded: a decimal of up to max_fraction_digits digits is
// exact and any other value is its exact fraction ("1/3") alone.
#include <string>
#include <vector>

#include "model/time.hpp"

namespace gpuwcrt {

// Beyond this a decimal is harder to read than the fraction (1/3 would never end anyway).
constexpr int max_fraction_digits = 12;

// Digits after the point of a rounded time: 0.000001 ms is a nanosecond, 0.000001 s a microsecond,
// both below what a TX2 measurement resolves.
constexpr int rounded_fraction_digits = 6;

// Which way a time that is rounded goes, so that a rounded bound stays a bound.
enum class Rounding { nearest, up, down };

// Whether times are written exactly (--exact): fixed once by the command line, before any
// table or CSV is written, for the whole process (false by default).
void set_exact_times(bool exact);
bool exact_times();

struct TimeNotation {
    int fraction_digits = 0;  // digits after the point of every decimal value
};

// A time's text before its column's notation is known, so that a table keeps a few bytes per
// time rather than the rational: its decimal with its own digits after the point ("1.5"), or,
// with digits < 0, its exact fraction ("1/3"), which every notation writes as it is.
struct TimeText {
    std::string text;
    int digits = -1;
    bool rounded = false;  // the text is t rounded to rounded_fraction_digits, not t
};
TimeText time_text(const Time& t, Rounding rounding = Rounding::nearest);

// t rounded to `digits` digits after the point, in the direction `rounding`: "0.333334".
std::string rounded_decimal(const Time& t, int digits, Rounding rounding);

TimeNotation notation_for(const std::vector<Time>& values);
// Widens `notation` so that it also writes a time of `digits` (notation_for is this over every value).
void widen_notation(TimeNotation& notation, int digits);
std::string format_time(const Time& t, const TimeNotation& notation);
// format_time of the time `t` stands for, in a notation widened by it.
std::string format_time(const TimeText& t, const TimeNotation& notation);

}  // namespace gpuwcrt
