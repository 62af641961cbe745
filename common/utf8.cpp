#include "common/utf8.hpp"

namespace gpuwcrt {

Utf8Char decode_utf8(std::string_view s, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = byte(i);
    const std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > s.size()) return {};
    long cp = len == 1 ? c : c & (0x7F >> len);
    for (std::size_t k = 1; k < len; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return {};
        cp = (cp << 6) | (byte(i + k) & 0x3F);
    }
    static const long min_of_len[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_of_len[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {};
    return {cp, len};
}

Utf8Char shown_utf8(std::string_view s, std::size_t i) {
    const Utf8Char c = decode_utf8(s, i);
    return c.code_point < 0 ? Utf8Char{replacement_character, 1} : c;
}

std::vector<std::size_t> utf8_ends(std::string_view s) {
    std::vector<std::size_t> ends;
    for (std::size_t i = 0; i < s.size(); ends.push_back(i)) i += shown_utf8(s, i).length;
    return ends;
}

}  // namespace gpuwcrt
