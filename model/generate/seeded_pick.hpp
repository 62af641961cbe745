#pragma once
// One uniform draw for every seeded generator: explicit arithmetic instead of
// std::uniform_int_distribution, whose output the standard leaves open, so that a seed means one
// workload with every standard library.
#include <cstdint>
#include <random>

namespace gpuwcrt {

// An integer in [lo, hi].
inline std::int64_t seeded_pick(std::mt19937_64& rng, std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
}

}  // namespace gpuwcrt
