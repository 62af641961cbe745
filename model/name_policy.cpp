#include "model/name_policy.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "common/utf8.hpp"
#include "model/input_limits.hpp"

namespace gpuwcrt {
namespace {

// One decoded character: its code point and its bytes; cp < 0 for a byte that starts no valid
// UTF-8 sequence (overlong forms, surrogates and values above U+10FFFF are invalid too).
struct Char {
    long cp;
    std::string_view bytes;
};

Char next_char(std::string_view s, std::size_t i) {
    const Utf8Char c = decode_utf8(s, i);
    return {c.code_point, s.substr(i, c.length)};
}

std::vector<Char> decode(std::string_view s) {
    std::vector<Char> out;
    for (std::size_t i = 0; i < s.size();) {
        out.push_back(next_char(s, i));
        i += out.back().bytes.size();
    }
    return out;
}

bool is_control(long cp) {
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || cp == 0x200E || cp == 0x200F ||
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

bool is_space(long cp) {
    return cp == ' ' || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x202F || cp == 0x205F ||
           cp == 0x3000 || cp == 0xFEFF;
}

std::string code_point(long cp) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "U+%04lX", cp);
    return buf;
}

}  // namespace

std::optional<std::string> name_problem(std::string_view name) {
    if (name.empty()) return "is empty";
    if (name.size() > limits::max_name_bytes)
        return "is " + std::to_string(name.size()) + " bytes long, more than the limit of " +
               std::to_string(limits::max_name_bytes);
    // Printable ASCII without ',' or '=' and no blank at either end: nearly every name, and
    // fine by every rule below, checked without decoding.
    const bool plain =
        std::all_of(name.begin(), name.end(), [](char c) { return c >= 0x20 && c < 0x7F && c != ',' && c != '='; });
    if (plain && name.front() != ' ' && name.back() != ' ') return std::nullopt;
    const std::vector<Char> chars = decode(name);
    for (const Char& c : chars) {
        if (c.cp < 0) return "is not valid UTF-8";
        if (is_control(c.cp)) return "contains the control character " + code_point(c.cp);
        if (c.cp == ',' || c.cp == '=')
            return std::string("contains '") + static_cast<char>(c.cp) +
                   "' (names may not contain ',' or '=': they separate names in --order and --bound)";
    }
    if (is_space(chars.front().cp) || is_space(chars.back().cp)) return "begins or ends with white space";
    return std::nullopt;
}

void check_name(const SourceLocation& where, std::string_view name, const std::string& what) {
    if (auto problem = name_problem(name)) throw InputError(where, what + " " + quoted_name(name) + " " + *problem);
}

std::string quoted_name(std::string_view name) {
    // A message quotes the beginning of a name over the limit: enough to find it.
    constexpr std::size_t shown = 64;
    const bool cut = name.size() > limits::max_name_bytes;
    std::string out = "'";
    for (const Char& c : decode(cut ? name.substr(0, shown) : name)) {
        char buf[24];
        if (c.cp < 0) {
            std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(static_cast<unsigned char>(c.bytes[0])));
            out += buf;
        } else if (is_control(c.cp)) {
            std::snprintf(buf, sizeof buf, c.cp < 0x100 ? "\\x%02lx" : "\\u%04lx", c.cp);
            out += buf;
        } else {
            out += c.bytes;
        }
    }
    return out + (cut ? "...'" : "'");
}

std::string name_from_label(std::string_view label, bool& changed) {
    std::vector<Char> chars = decode(label);
    std::size_t first = 0, last = chars.size();
    while (first < last && chars[first].cp >= 0 && is_space(chars[first].cp)) ++first;
    while (last > first && chars[last - 1].cp >= 0 && is_space(chars[last - 1].cp)) --last;
    std::string out;
    for (std::size_t i = first; i < last; ++i) {
        if (chars[i].cp == ',') out += ';';
        else if (chars[i].cp == '=') out += ':';
        else out += chars[i].bytes;
    }
    changed = out != label;
    return out;
}

}  // namespace gpuwcrt
