#include "report/time_notation.hpp"

#include <algorithm>

namespace gpuwcrt {

TimeNotation notation_for(const std::vector<Time>& values) {
    TimeNotation n;
    for (const Time& t : values) {
        const int d = decimal_digits(t);
        if (d < 0 || d > max_fraction_digits) continue;  // written as its fraction, alone
        n.fraction_digits = std::max(n.fraction_digits, d);
    }
    return n;
}

std::string format_time(const Time& t, const TimeNotation& notation) {
    const int d = decimal_digits(t);
    if (d < 0 || d > notation.fraction_digits) return exact_string(t);  // never rounded
    BigInt scale = 1;
    for (int i = 0; i < notation.fraction_digits; ++i) scale *= 10;
    // Exact: t has at most fraction_digits decimal digits, so t * scale is an integer.
    BigInt scaled = boost::multiprecision::numerator(t) * scale / boost::multiprecision::denominator(t);
    const bool negative = scaled < 0;
    std::string digits = (negative ? BigInt(-scaled) : scaled).str();
    const auto point = static_cast<std::size_t>(notation.fraction_digits);
    if (point > 0) {
        if (digits.size() <= point) digits.insert(0, point + 1 - digits.size(), '0');
        digits.insert(digits.size() - point, ".");
    }
    return negative ? "-" + digits : digits;
}

}  // namespace gpuwcrt
