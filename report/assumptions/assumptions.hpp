#pragma once
// What an answer rests on besides the proof: the values an import supplied or defaulted, the
// modelling choices made by options, and the argument the analysis used. A certificate that
// states its bounds without them would claim more than was shown (docs/schema/wcrt.md,
// "assumptions").
#include <ostream>
#include <string>
#include <vector>

#include "report/json.hpp"

namespace gpuwcrt {

enum class AssumptionSource {
    import,         // the workload file's `assumptions`: written by an importer
    default_value,  // an option left at its default
    option,         // an option the user gave
    argument        // the argument of the analysis (how the bound holds for all time)
};

struct Assumption {
    std::string what;  // one sentence, without a final period
    AssumptionSource source;
};

// "import", "default", "option", "argument": the JSON's "source".
std::string to_string(AssumptionSource source);

// [{"what": "...", "source": "import"}, ...], in the order given.
Json assumptions_json(const std::vector<Assumption>& items);

// "assumptions:" and one bullet per item ("  - SM placement: ... (default)"); nothing when none.
void print_assumptions(std::ostream& out, const std::vector<Assumption>& items);

}  // namespace gpuwcrt
