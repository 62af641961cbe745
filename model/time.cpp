#include "model/time.hpp"

#include <cctype>
#include <limits>
#include <numeric>
#include <vector>

#include "model/input_limits.hpp"

namespace gpuwcrt {
namespace {

bool all_digits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

BigInt pow10(long n) { return boost::multiprecision::pow(BigInt(10), static_cast<unsigned>(n)); }

const std::string not_exact = "is not an exact number (write 1.5, 3, 2.5e-3 or \"3/2\")";

// A decimal with optional sign, fraction and exponent; the bounds are checked on the text,
// before any big integer is built.
TimeLiteral parse_decimal(std::string s) {
    bool negative = false;
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
        negative = s[0] == '-';
        s.erase(0, 1);
    }
    long exponent = 0;
    if (auto e = s.find_first_of("eE"); e != std::string::npos) {
        std::string exp = s.substr(e + 1);
        s.resize(e);
        bool exp_negative = false;
        if (!exp.empty() && (exp[0] == '+' || exp[0] == '-')) {
            exp_negative = exp[0] == '-';
            exp.erase(0, 1);
        }
        if (!all_digits(exp)) return {std::nullopt, not_exact};
        exp.erase(0, std::min(exp.find_first_not_of('0'), exp.size() - 1));
        const std::string bound = std::to_string(limits::max_time_exponent);
        if (exp.size() > bound.size() || std::stol(exp) > limits::max_time_exponent)
            return {std::nullopt, "has an exponent beyond the limit of +-" + bound + " for decimal times"};
        exponent = std::stol(exp) * (exp_negative ? -1 : 1);
    }
    std::string int_part = s, frac_part;
    if (auto dot = s.find('.'); dot != std::string::npos) {
        int_part = s.substr(0, dot);
        frac_part = s.substr(dot + 1);
        if (!all_digits(frac_part)) return {std::nullopt, not_exact};
    }
    if (!all_digits(int_part)) return {std::nullopt, not_exact};
    std::string digits = int_part + frac_part;
    if (digits.size() > limits::max_time_digits)
        return {std::nullopt, "has " + std::to_string(digits.size()) + " digits, more than the limit of " +
                                  std::to_string(limits::max_time_digits) + " for one number"};
    // Boost reads a leading 0 as an octal prefix ("065" would be 53), so strip leading zeros.
    digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size() - 1));
    BigInt numerator(digits);
    exponent -= static_cast<long>(frac_part.size());
    Time value = exponent >= 0 ? Time(numerator * pow10(exponent)) : Time(numerator, pow10(-exponent));
    return {negative ? Time(-value) : value, {}};
}

unsigned __int128 gcd128(unsigned __int128 x, unsigned __int128 y) {
    constexpr unsigned __int128 max64 = std::numeric_limits<std::uint64_t>::max();
    if (x <= max64 && y <= max64) return std::gcd(static_cast<std::uint64_t>(x), static_cast<std::uint64_t>(y));
    while (y != 0) {
        const unsigned __int128 r = x % y;
        x = y;
        y = r;
    }
    return x;
}

// a + sign·b when every part fits in 63 bits and so does the reduced result; else nullopt.
std::optional<Time> small_sum(const Time& a, const Time& b, int sign) {
    const std::optional<std::int64_t> na = small_int(numerator_ref(a)), da = small_int(denominator_ref(a)),
                                      nb = small_int(numerator_ref(b)), db = small_int(denominator_ref(b));
    if (!na || !da || !nb || !db) return std::nullopt;
    // Exact: each product of two 63-bit integers, and the sum of two, fits in 128 bits.
    const __int128 n = *da == *db ? static_cast<__int128>(*na) + sign * static_cast<__int128>(*nb)
                                  : static_cast<__int128>(*na) * *db + sign * static_cast<__int128>(*nb) * *da;
    const __int128 d = *da == *db ? *da : static_cast<__int128>(*da) * *db;
    const auto g = static_cast<__int128>(
        gcd128(static_cast<unsigned __int128>(n < 0 ? -n : n), static_cast<unsigned __int128>(d)));
    const __int128 rn = n / g, rd = d / g;
    constexpr __int128 max64 = std::numeric_limits<std::int64_t>::max();
    if (rn > max64 || rn < -max64 || rd > max64) return std::nullopt;
    return time_fraction(static_cast<std::int64_t>(rn), static_cast<std::int64_t>(rd));
}

// Digits, "1.25" or "12/5", no sign, underscore or exponent, at most 18 digits a number:
// nearly every literal of a real workload, read in machine integers without building a string
// or a big integer. nullopt for anything else, which the general reader then parses (or
// refuses with its message).
std::optional<Time> read_plain_literal(std::string_view text) {
    // An integer of 1 to 18 digits, or with `point`, digits '.' digits (as parse_decimal wants).
    auto number = [](std::string_view s, bool point, std::int64_t& value, std::int64_t& scale) {
        value = 0;
        scale = 1;
        const std::size_t dot = point ? s.find('.') : std::string_view::npos;
        const std::size_t digits = s.size() - (dot == std::string_view::npos ? 0 : 1);
        if (digits == 0 || digits > 18 || dot == 0 || dot + 1 == s.size()) return false;
        for (std::size_t i = 0; i < s.size(); ++i) {
            if (i == dot) continue;
            if (s[i] < '0' || s[i] > '9') return false;
            value = value * 10 + (s[i] - '0');
            if (dot != std::string_view::npos && i > dot) scale *= 10;
        }
        return true;
    };
    std::int64_t num = 0, num_scale = 1, den = 1, den_scale = 1;
    const std::size_t slash = text.find('/');
    if (slash == std::string_view::npos) {
        if (!number(text, true, num, num_scale)) return std::nullopt;
        return time_fraction(num, num_scale);
    }
    if (!number(text.substr(0, slash), false, num, num_scale) ||
        !number(text.substr(slash + 1), false, den, den_scale) || den == 0)
        return std::nullopt;
    return time_fraction(num, den);
}

}  // namespace

Time time_fraction(std::int64_t n, std::int64_t d) {
    if (d == 1) return Time(BigInt(n));  // an integer: nothing to reduce
    Time t;
    // Reduced as a rational of machine integers; the conversion to big integers then only checks it.
    t.backend().data() = boost::rational<BigInt>(boost::rational<std::int64_t>(n, d));
    return t;
}

Time time_sum(const Time& a, const Time& b) {
    if (std::optional<Time> sum = small_sum(a, b, 1)) return std::move(*sum);
    return a + b;
}

Time time_difference(const Time& a, const Time& b) {
    if (std::optional<Time> difference = small_sum(a, b, -1)) return std::move(*difference);
    return a - b;
}

TimeLiteral read_time_literal(std::string_view text) {
    if (std::optional<Time> plain = read_plain_literal(text)) return {std::move(plain), {}};
    std::string s;
    for (char c : text)
        if (c != '_' && c != ' ') s.push_back(c);
    if (s.empty()) return {std::nullopt, not_exact};
    if (auto slash = s.find('/'); slash != std::string::npos) {
        TimeLiteral num = parse_decimal(s.substr(0, slash));
        if (!num.value) return num;
        TimeLiteral den = parse_decimal(s.substr(slash + 1));
        if (!den.value) return den;
        if (*den.value == 0) return {std::nullopt, "divides by zero"};
        return {*num.value / *den.value, {}};
    }
    return parse_decimal(s);
}

std::optional<Time> parse_time(std::string_view text) { return read_time_literal(text).value; }

namespace {

std::string integer_string(const BigInt& x) {
    if (const std::optional<std::int64_t> v = small_int(x)) return std::to_string(*v);
    return x.str();
}

}  // namespace

std::string exact_string(const Time& t) {
    const BigInt& den = denominator_ref(t);
    if (den == 1) return integer_string(numerator_ref(t));
    return integer_string(numerator_ref(t)) + "/" + integer_string(den);
}

int decimal_digits(const Time& t) {
    if (std::optional<std::int64_t> small = small_int(denominator_ref(t))) {
        std::int64_t rest = *small;
        int twos = 0, fives = 0;
        for (; rest % 2 == 0; rest /= 2) ++twos;
        for (; rest % 5 == 0; rest /= 5) ++fives;
        return rest == 1 ? std::max(twos, fives) : -1;
    }
    BigInt den = denominator_ref(t);
    int twos = 0, fives = 0;
    while (den % 2 == 0) {
        den /= 2;
        ++twos;
    }
    while (den % 5 == 0) {
        den /= 5;
        ++fives;
    }
    return den == 1 ? std::max(twos, fives) : -1;
}

std::string human_string(const Time& t) {
    const int digits = decimal_digits(t);
    if (digits < 0) return exact_string(t);
    BigInt scaled = boost::multiprecision::numerator(t) * pow10(digits) / boost::multiprecision::denominator(t);
    bool negative = scaled < 0;
    if (negative) scaled = -scaled;
    std::string s = scaled.str();
    if (digits > 0) {
        if (static_cast<int>(s.size()) <= digits) s.insert(0, digits + 1 - s.size(), '0');
        s.insert(s.size() - digits, ".");
    }
    return negative ? "-" + s : s;
}

BigInt common_denominator(const std::vector<Time>& values) {
    // In machine integers while the LCM fits in 63 bits (nearly always), then in BigInt.
    std::int64_t small = 1;
    std::size_t i = 0;
    for (; i < values.size(); ++i) {
        const std::optional<std::int64_t> d = small_int(denominator_ref(values[i]));
        std::int64_t next = 0;
        if (!d || __builtin_mul_overflow(small, *d / std::gcd(small, *d), &next)) break;
        small = next;
    }
    BigInt l = small;
    for (; i < values.size(); ++i) {
        const BigInt& d = denominator_ref(values[i]);
        l = l / boost::multiprecision::gcd(l, d) * d;
    }
    return l;
}

}  // namespace gpuwcrt
