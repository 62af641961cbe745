#pragma once
// The one hash of a key made of integers (a bit set, a vector of counts) for the hash tables
// of the searches: every word goes through SplitMix64 (common/splitmix.hpp) with all before
// it, so that every bit of every word reaches the low bits a table indexes by, and the same
// words in another order hash apart. The same on every machine, unlike std::hash.
#include <cstdint>
#include <ranges>
#include <type_traits>

#include "common/splitmix.hpp"

namespace gpuwcrt {

// The length seeds the hash: a key and its extension by zero words hash apart.
template <std::ranges::sized_range Words>
constexpr std::uint64_t hash_words(const Words& words) {
    static_assert(std::is_integral_v<std::ranges::range_value_t<Words>>);
    std::uint64_t h = splitmix_gamma ^ static_cast<std::uint64_t>(std::ranges::size(words));
    for (const auto word : words) h = splitmix64(h ^ static_cast<std::uint64_t>(word));
    return h;
}

}  // namespace gpuwcrt
