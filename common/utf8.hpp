#pragma once
// Decoding UTF-8 strictly (RFC 3629), for the readers that must refuse what is not text: a
// name's characters (model/name_policy.cpp) and the plain-text check of a TOML file
// (model/io/toml_subset.cpp); and the same decoding as text is shown, for the reports that
// measure and cut it (report/display_width.cpp, the tables and charts), where an invalid byte
// is one replacement character, as terminals and browsers draw it.
#include <cstddef>
#include <string_view>
#include <vector>

namespace gpuwcrt {

// The character at s[i]: its code point and its length in bytes. A byte that starts no valid
// sequence (a stray continuation byte, a truncated sequence, an overlong form, a surrogate, a
// value above U+10FFFF) is code point -1 of length 1.
struct Utf8Char {
    long code_point = -1;
    std::size_t length = 1;
};
Utf8Char decode_utf8(std::string_view s, std::size_t i);

inline constexpr long replacement_character = 0xFFFD;

// The character at s[i] as shown: decode_utf8's, with an invalid byte U+FFFD of length 1.
Utf8Char shown_utf8(std::string_view s, std::size_t i);

// The byte offset after each character of `s` as shown (the last is s.size()): where `s` may
// be cut without splitting a character.
std::vector<std::size_t> utf8_ends(std::string_view s);

}  // namespace gpuwcrt
