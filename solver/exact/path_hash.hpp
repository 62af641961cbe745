#pragma once
// The canonical order among equally good scenarios (docs/theory/exact-engine.md, "Canonical
// witnesses"): every stored state and every response found carries a 64-bit hash of the decision
// path that reached it (the decisions of every macro step from the initial state). Where two paths
// reach the same state, or the same largest response, the one with the smaller hash is kept, so
// that the witnesses do not depend on the order in which states were found: not on the number of
// worker threads, nor on how states are spread over processes (docs/theory/distributed.md).
#include <cstddef>
#include <cstdint>

#include "common/splitmix.hpp"

namespace gpuwcrt::exact {

// The empty path: the initial state's.
inline constexpr std::uint64_t initial_path = 0x6a09e667f3bcc908ULL;

// The path `parent` extended by one macro step with `count` decisions: the count is mixed in
// first, so that no two different sequences of steps share their decisions' concatenation.
inline std::uint64_t extend_path(std::uint64_t parent, const int* decisions, std::size_t count) {
    std::uint64_t h = splitmix_mix(parent + splitmix_gamma * (count + 1));
    for (std::size_t i = 0; i < count; ++i)
        h = splitmix_mix(
            h ^ (static_cast<std::uint64_t>(static_cast<std::uint32_t>(decisions[i])) + 0x632be59bd9b4e019ULL));
    return h;
}

}  // namespace gpuwcrt::exact
