#pragma once
// Seeded mutation of TOML/JSON text: byte, line and token level, plus splicing two seeds.
#include <string>
#include <vector>

#include "corpus.hpp"
#include "fuzz_rng.hpp"

namespace gpuwcrt::fuzz {

struct Mutant {
    std::string text;
    std::vector<std::string> steps;  // what was done, for the reproducer's notes
};

// A seed of format `f` (rarely one of the other format) with 0..4 stacked mutations.
Mutant make_mutant(const Corpus& corpus, Format f, Rng& rng);

}  // namespace gpuwcrt::fuzz
