#pragma once
// Exact time (docs/theory/semantics.md §1): every time value in gpuwcrt is a rational number.
#include <boost/multiprecision/cpp_int.hpp>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuwcrt {

using Time = boost::multiprecision::cpp_rational;
using BigInt = boost::multiprecision::cpp_int;

// The numerator and the denominator (positive, in lowest terms) by reference: Boost's
// numerator() and denominator() return copies, a cost in loops over every block.
inline const BigInt& numerator_ref(const Time& t) { return t.backend().data().numerator(); }
inline const BigInt& denominator_ref(const Time& t) { return t.backend().data().denominator(); }

// x as a machine integer when its magnitude fits in 63 bits, for exact fast paths in hot loops
// (the values of real workloads are small); nullopt sends the caller to BigInt arithmetic.
inline std::optional<std::int64_t> small_int(const BigInt& x) {
    const auto& b = x.backend();
    if (b.size() != 1) return std::nullopt;
    const std::uint64_t magnitude = *b.limbs();
    if (magnitude > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
    const auto v = static_cast<std::int64_t>(magnitude);
    return b.sign() ? -v : v;
}

// n/d for d > 0, in lowest terms, reduced in machine integers (Boost's own normalisation
// divides big integers, several times slower).
Time time_fraction(std::int64_t n, std::int64_t d);

// a + b and a - b, exact; in 128-bit integers when every numerator and denominator fits in 63
// bits, as Boost's rational addition takes two gcds and four divisions of big integers.
Time time_sum(const Time& a, const Time& b);
Time time_difference(const Time& a, const Time& b);

// Reads "4", "-2", "1.5", "1_000.25", "2.5e-3", "3/2" exactly; nullopt when the text is none of these
// or breaks a bound of read_time_literal.
std::optional<Time> parse_time(std::string_view text);

// parse_time with the reason on failure, for messages. Each number of the literal has at most
// limits::max_time_digits digits and an exponent within +-limits::max_time_exponent, so that
// "1e999999" is refused at once instead of building a million-digit integer.
struct TimeLiteral {
    std::optional<Time> value;
    std::string problem;  // when !value: "is not an exact number ...", "has an exponent beyond ..."
};
TimeLiteral read_time_literal(std::string_view text);

// "3/2", "4", "-1/3": the exact form JSON carries.
std::string exact_string(const Time& t);

// Digits after the point of t's decimal expansion, or -1 when it does not terminate.
int decimal_digits(const Time& t);

// For people: a terminating decimal when there is one ("1.5", "0.125"), else the fraction.
std::string human_string(const Time& t);

// Least common multiple of the denominators; scaling by it makes every value an integer.
BigInt common_denominator(const std::vector<Time>& values);

}  // namespace gpuwcrt
