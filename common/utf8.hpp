#pragma once
// Decoding UTF-8 strictly (RFC 3629), for the readers that must refuse what is not text: a
// name's characters (model/name_policy.cpp) and the plain-text check of a TOML file
// (model/io/toml_subset.cpp).
#include <cstddef>
#include <string_view>

namespace gpuwcrt {

// The character at s[i]: its code point and its length in bytes. A byte that starts no valid
// sequence (a stray continuation byte, a truncated sequence, an overlong form, a surrogate, a
// value above U+10FFFF) is code point -1 of length 1.
struct Utf8Char {
    long code_point = -1;
    std::size_t length = 1;
};
Utf8Char decode_utf8(std::string_view s, std::size_t i);

}  // namespace gpuwcrt
