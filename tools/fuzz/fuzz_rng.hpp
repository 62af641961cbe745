#pragma once
// Seeded randomness for the fuzzer: a 64-bit Mersenne Twister with explicit modular arithmetic
// (not std::uniform_int_distribution, whose output the standard leaves open), so that a seed
// means the same mutants with every standard library, as in model/generate/random_workload.cpp.
#include <cstdint>
#include <random>

#include "common/splitmix.hpp"

namespace gpuwcrt::fuzz {

using Rng = std::mt19937_64;

// Uniform-enough integer in [lo, hi] (the modulo bias is irrelevant for fuzzing).
inline std::uint64_t pick(Rng& rng, std::uint64_t lo, std::uint64_t hi) { return lo + rng() % (hi - lo + 1); }

// Index into a container of `size` (> 0) elements.
inline std::size_t pick_index(Rng& rng, std::size_t size) { return static_cast<std::size_t>(rng() % size); }

// True with probability 1/n.
inline bool one_in(Rng& rng, std::uint64_t n) { return rng() % n == 0; }

// The generator of run `run` of a campaign seeded with `seed`: every run has its own stream
// (SplitMix64 of both, common/splitmix.hpp), so a run's mutant does not depend on --jobs or on earlier runs.
inline Rng run_rng(std::uint64_t seed, std::uint64_t run) {
    return Rng(splitmix_mix(seed * splitmix_gamma + run + 0x632BE59BD9B4E019ull));
}

}  // namespace gpuwcrt::fuzz
