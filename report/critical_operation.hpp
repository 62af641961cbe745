#pragma once
// Which operation a certificate's chart shows when none is named: the critical one, whose
// bound is nearest to failing (docs/decisions/0026-decimal-output.md lists the order).
#include <optional>
#include <vector>

#include "model/time.hpp"

namespace gpuwcrt {

// One analysed operation as the choice sees it.
struct MarginRow {
    int op = 0;
    std::optional<Time> bound;         // its deadline, or the bound certify checks; none: no margin
    std::optional<Time> lower, upper;  // the replayed and the proven bound on its response
    bool charted = false;              // a scenario of it can be drawn (a witness or counterexample)
};

// Among the rows that can be charted: a refuted bound first (lower > bound; the largest excess
// first), then a bound not proven (its upper bound above it, the largest excess first, then
// those with no upper bound), then the least margin bound − upper; operations without a bound last, the
// largest upper bound (else lower) first. Ties keep the given order. None when no row is charted.
std::optional<int> critical_operation(const std::vector<MarginRow>& rows);

}  // namespace gpuwcrt
