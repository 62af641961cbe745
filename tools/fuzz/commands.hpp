#pragma once
// The gpuwcrt command lines the fuzzer rotates through, one per run (run index modulo count).
#include <string>
#include <vector>

#include "corpus.hpp"
#include "fuzz_rng.hpp"

namespace gpuwcrt::fuzz {

struct Command {
    std::string key;             // short name for --commands and reproducer folders
    Format input;                // what it reads
    double own_timeout = 0;      // its --timeout in seconds, 0 when it has none
    bool writes_output = false;  // an input error must leave no output file
};

// simulate, simulate-svg, rta, wcrt, wcrt-enumerate, import-examiner.
const std::vector<Command>& all_commands();

// Arguments after the binary for one run: input and output paths, plus, for import-examiner,
// a copy bandwidth in half of the runs (configs with copies need one).
std::vector<std::string> command_args(const Command& c, const std::string& input, const std::string& output, Rng& rng);

}  // namespace gpuwcrt::fuzz
