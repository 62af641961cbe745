#include "app/warp/warp_options.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include "model/source_location.hpp"

namespace gpuwcrt::app {
namespace {

bool only_digits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::string shown(const std::string& text) {
    const bool plain = !text.empty() && (only_digits(text) || (text[0] == '-' && only_digits(text.substr(1))));
    return plain ? text : "'" + text + "'";
}

std::string without_leading_zeros(const std::string& digits) {
    const auto first = digits.find_first_not_of('0');
    return first == std::string::npos ? "0" : digits.substr(first);
}

}  // namespace

long long positive_integer(const std::string& option, const std::string& text, long long most,
                           const std::string& why_most) {
    if (!only_digits(text)) throw option_error(option, "must be a positive integer, got " + shown(text));
    const std::string digits = without_leading_zeros(text);
    if (digits == "0") throw option_error(option, "must be a positive integer, got " + shown(text));
    const std::string limit = std::to_string(most);
    if (digits.size() > limit.size() || (digits.size() == limit.size() && digits > limit))
        throw option_error(
            option, "must be at most " + limit + (why_most.empty() ? "" : " (" + why_most + ")") + ", got " + text);
    return std::stoll(digits);
}

std::chrono::milliseconds positive_seconds(const std::string& option, const std::string& text) {
    const std::string message =
        "must be a positive number of seconds up to 1000000 (e.g. 5 or 0.5), got " + shown(text);
    const auto dot = text.find('.');
    const std::string whole = text.substr(0, dot), fraction = dot == std::string::npos ? "" : text.substr(dot + 1);
    if (!only_digits(whole) || (dot != std::string::npos && !only_digits(fraction)))
        throw option_error(option, message);
    const std::string w = without_leading_zeros(whole);
    if (w.size() > 7) throw option_error(option, message);
    long long ms = std::stoll(w) * 1000;
    std::string f = fraction;
    f.resize(std::max<std::size_t>(f.size(), 3), '0');
    ms += std::stoll(f.substr(0, 3));
    if (f.find_first_not_of('0', 3) != std::string::npos) ++ms;  // a remainder below one millisecond
    if (ms <= 0 || ms > 1'000'000'000LL) throw option_error(option, message);
    return std::chrono::milliseconds(ms);
}

IntegerRange positive_range(const std::string& option, const std::string& text, bool with_step, long long most,
                            const std::string& why_most) {
    const std::string form = with_step ? "FIRST:LAST[:STEP]" : "FIRST:LAST";
    std::vector<std::string> parts;
    for (std::size_t at = 0;;) {
        const auto colon = text.find(':', at);
        parts.push_back(text.substr(at, colon == std::string::npos ? std::string::npos : colon - at));
        if (colon == std::string::npos) break;
        at = colon + 1;
    }
    if (parts.size() > (with_step ? 3u : 2u))
        throw option_error(option, "must be " + form + " of positive integers, got " + shown(text));
    IntegerRange r;
    try {
        r.span.lo = positive_integer(option, parts[0], most, why_most);
        r.span.hi = parts.size() > 1 ? positive_integer(option, parts[1], most, why_most) : r.span.lo;
        r.step = parts.size() > 2 ? positive_integer(option, parts[2], most) : 1;
    } catch (const InputError& e) {
        throw option_error(option, form + ": each part " + e.message());
    }
    if (r.span.hi < r.span.lo)
        throw option_error(option, "must be " + form + " with FIRST <= LAST, got " + shown(text));
    return r;
}

}  // namespace gpuwcrt::app
