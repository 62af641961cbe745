#include "model/time.hpp"

#include <cctype>
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

}  // namespace

TimeLiteral read_time_literal(std::string_view text) {
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

std::string exact_string(const Time& t) {
    const BigInt& den = boost::multiprecision::denominator(t);
    if (den == 1) return boost::multiprecision::numerator(t).str();
    return boost::multiprecision::numerator(t).str() + "/" + den.str();
}

int decimal_digits(const Time& t) {
    BigInt den = boost::multiprecision::denominator(t);
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
    BigInt l = 1;
    for (const Time& v : values) {
        BigInt d = boost::multiprecision::denominator(v);
        l = l / boost::multiprecision::gcd(l, d) * d;
    }
    return l;
}

}  // namespace gpuwcrt
