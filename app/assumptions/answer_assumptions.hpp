#pragma once
// The assumptions a wcrt or certify answer rests on (report/assumptions/): the workload's own
// (its `assumptions`, written by an importer), the modelling choices of the options, given or
// left at their defaults, and the sentences naming the argument the analysis used.
#include <string>
#include <vector>

#include "app/verification.hpp"
#include "report/assumptions/assumptions.hpp"

namespace gpuwcrt::app {

std::vector<Assumption> answer_assumptions(const Workload& w, const VerifyOptions& o,
                                           const std::vector<std::string>& arguments);

// certify's --bound NAME=VALUE and --only-bounds, as given.
void add_bound_assumptions(std::vector<Assumption>& out, const std::vector<std::string>& bounds, bool only_bounds);

}  // namespace gpuwcrt::app
