#pragma once
// How the reports name who proved a bound (BoundedAnswer::lower_by / upper_by, the warp engines'
// runs): an engine by its --engine name, an argument by what it is.
#include <string>

#include "bounds/answer.hpp"
#include "report/json.hpp"

namespace gpuwcrt {

// Empty for Provenance::none.
std::string provenance_text(Provenance p);
// The text, or null for Provenance::none.
Json provenance_json(Provenance p);

// An internal error's message when engines contradict each other, naming both.
std::string contradiction_text(const BoundsContradict& e);

}  // namespace gpuwcrt
