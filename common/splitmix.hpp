#pragma once
// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014):
// a fixed, portable 64-bit mix wherever a hash or a seed must look random yet be the same on
// every machine and every run (the exact engine's path hashes and owners, the scenario search's
// placements, the fuzzer's run seeds). std::hash gives no such promise.
#include <cstdint>

namespace gpuwcrt {

// The generator's increment: 2^64 divided by the golden ratio, odd.
inline constexpr std::uint64_t splitmix_gamma = 0x9e3779b97f4a7c15ULL;

// The finaliser: a bijective mix, nearby inputs give unrelated outputs.
inline constexpr std::uint64_t splitmix_mix(std::uint64_t x) {
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// The generator's output from state `x`: the state advanced by the increment, then mixed.
inline constexpr std::uint64_t splitmix64(std::uint64_t x) { return splitmix_mix(x + splitmix_gamma); }

}  // namespace gpuwcrt
