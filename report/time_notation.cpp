#include "report/time_notation.hpp"

#include <algorithm>
#include <optional>

namespace gpuwcrt {

namespace {

bool exact_output = false;

}  // namespace

void set_exact_times(bool exact) { exact_output = exact; }
bool exact_times() { return exact_output; }

void widen_notation(TimeNotation& notation, int digits) {
    if (digits < 0 || digits > max_fraction_digits) return;  // written as its fraction, alone
    notation.fraction_digits = std::max(notation.fraction_digits, digits);
}

TimeNotation notation_for(const std::vector<Time>& values) {
    TimeNotation n;
    for (const Time& t : values) widen_notation(n, decimal_digits(t));
    return n;
}

namespace {

// The decimal digits of t · 10^point (an integer), the point put back in front of the last
// `point` of them.
std::string with_point(std::string digits, bool negative, std::size_t point) {
    if (point > 0) {
        if (digits.size() <= point) digits.insert(0, point + 1 - digits.size(), '0');
        digits.insert(digits.size() - point, ".");
    }
    return negative ? "-" + digits : digits;
}

// |n| · 10^point / den in 128 bits when n and den fit in 64 (|n| < 2^63, 10^12 < 2^40): the
// values of real workloads, without big integers.
std::optional<std::string> small_scaled_digits(const Time& t, int point) {
    const std::optional<std::int64_t> n = small_int(numerator_ref(t)), den = small_int(denominator_ref(t));
    if (!n || !den || point > max_fraction_digits) return std::nullopt;
    unsigned __int128 scaled = static_cast<unsigned __int128>(*n < 0 ? -static_cast<__int128>(*n) : *n);
    for (int i = 0; i < point; ++i) scaled *= 10;
    scaled /= static_cast<unsigned __int128>(*den);
    char buffer[40];  // 2^128 has 39 digits
    char* first = buffer + sizeof buffer;
    do {
        *--first = static_cast<char>('0' + static_cast<int>(scaled % 10));
        scaled /= 10;
    } while (scaled > 0);
    return std::string(first, buffer + sizeof buffer);
}

}  // namespace

TimeText time_text(const Time& t, Rounding rounding) {
    const int d = decimal_digits(t);
    if (d >= 0 && d <= (exact_output ? max_fraction_digits : rounded_fraction_digits))
        return {format_time(t, TimeNotation{d}), d};
    if (exact_output) return {exact_string(t), -1};
    return {rounded_decimal(t, rounded_fraction_digits, rounding), rounded_fraction_digits, true};
}

std::string rounded_decimal(const Time& t, int digits, Rounding rounding) {
    BigInt scale = 1;
    for (int i = 0; i < digits; ++i) scale *= 10;
    const BigInt scaled = numerator_ref(t) * scale;
    const BigInt& den = denominator_ref(t);
    BigInt q = scaled / den;  // toward zero, the remainder taking the sign of `scaled`
    const BigInt r = scaled % den;
    if (r != 0) {
        const bool negative = scaled < 0;
        if (rounding == Rounding::up && !negative) q += 1;
        else if (rounding == Rounding::down && negative) q -= 1;
        else if (rounding == Rounding::nearest && 2 * (negative ? BigInt(-r) : r) >= den) q += negative ? -1 : 1;
    }
    const bool negative = q < 0;
    return with_point((negative ? BigInt(-q) : q).str(), negative, static_cast<std::size_t>(digits));
}

std::string format_time(const TimeText& t, const TimeNotation& notation) {
    if (t.digits < 0 || t.digits >= notation.fraction_digits) return t.text;
    // The same digits followed by zeros: t · 10^fraction_digits is t · 10^digits times a power of ten.
    return t.text + (t.digits == 0 ? "." : "") + std::string(notation.fraction_digits - t.digits, '0');
}

std::string format_time(const Time& t, const TimeNotation& notation) {
    const int d = decimal_digits(t);
    if (d < 0 || d > notation.fraction_digits) return exact_string(t);  // never rounded
    const auto point = static_cast<std::size_t>(notation.fraction_digits);
    // Exact: t has at most fraction_digits decimal digits, so t * 10^fraction_digits is an integer.
    if (std::optional<std::string> digits = small_scaled_digits(t, notation.fraction_digits))
        return with_point(std::move(*digits), t.sign() < 0, point);
    BigInt scale = 1;
    for (int i = 0; i < notation.fraction_digits; ++i) scale *= 10;
    BigInt scaled = numerator_ref(t) * scale / denominator_ref(t);
    const bool negative = scaled < 0;
    return with_point((negative ? BigInt(-scaled) : scaled).str(), negative, point);
}

}  // namespace gpuwcrt
