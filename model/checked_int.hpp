#pragma once
// Overflow-checked integer arithmetic for quantities that come from input (block counts, per-block
// demands): a product that does not fit is an input error, never a silently wrapped value.
#include <cstdint>
#include <optional>

namespace gpuwcrt {

inline std::optional<std::int64_t> checked_mul(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
    return r;
}

inline std::optional<std::int64_t> checked_add(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
    return r;
}

// a * b when it is at most `limit`, else nullopt (overflow included).
inline std::optional<std::int64_t> product_within(std::int64_t a, std::int64_t b, std::int64_t limit) {
    const auto p = checked_mul(a, b);
    if (!p || *p > limit) return std::nullopt;
    return p;
}

}  // namespace gpuwcrt
