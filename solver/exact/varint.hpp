#pragma once
// Zig-zag LEB128 numbers: the state keys are hashed and stored by the million, and most of their
// numbers (phases, relative times, block counts) are small.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gpuwcrt::exact {

inline void put_varint(std::string& out, std::int64_t v) {
    std::uint64_t z = (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
    while (z >= 0x80) {
        out.push_back(static_cast<char>((z & 0x7f) | 0x80));
        z >>= 7;
    }
    out.push_back(static_cast<char>(z));
}

struct VarintReader {
    std::string_view in;
    std::size_t at = 0;
    std::int64_t get() {
        std::uint64_t z = 0;
        for (int shift = 0;; shift += 7) {
            if (at >= in.size()) throw std::logic_error("exact engine: truncated state key");
            const auto byte = static_cast<std::uint8_t>(in[at++]);
            z |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
            if (!(byte & 0x80)) break;
        }
        return static_cast<std::int64_t>(z >> 1) ^ -static_cast<std::int64_t>(z & 1);
    }
};

}  // namespace gpuwcrt::exact
