#pragma once
// One SM's availability vectors (state.hpp SmState) seen by one block: when it fits, and what
// occupying it leaves. Both are monotone, which is what makes the transitions sound.
#include <cstdint>

#include "bounds/abstraction/problem.hpp"
#include "bounds/abstraction/state.hpp"

namespace gpuwcrt::abstraction {

// The earliest instant >= `from` at which one more block of kernel `op` fits on `sm`, with its
// units free at their `lo` (`late` false) or `hi` (`late` true) instants; `never` if it never
// fits. For each resource, the need-th smallest availability (need units must be free); the
// block fits once every resource fits. Monotone in every availability and in `from`.
std::int64_t fit_instant(const Problem& p, const SmState& sm, int op, bool late, std::int64_t from);

// A block of `op` ending in `end` takes, per resource, `need` units free at its start: the
// `need` smallest (all free then, and free units are interchangeable from then on); the
// segment stays sorted. Monotone in the availabilities and in the end.
void occupy(const Problem& p, SmState& sm, int op, const Interval& end);

}  // namespace gpuwcrt::abstraction
