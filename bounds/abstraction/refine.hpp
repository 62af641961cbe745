#pragma once
// Targeted refinement: after a complete exploration, the keys whose K the next round raises
// are those with a path to an edge that dispatches an open operation (UB > LB) with a response
// above its lower bound: only their merges can have made that bound loose. Every other key
// keeps its K. Any K per key is sound (docs/theory/abstraction.md, "Merging"), so every round's
// bounds hold.
#include <optional>
#include <vector>

#include "bounds/abstraction/explorer.hpp"
#include "model/integer_time.hpp"

namespace gpuwcrt::abstraction {

// Sets caps[key] = k_next for every such key; returns how many. `depth`: how many levels above
// a loose edge count (0: only the keys the loose edges leave, where a merge mixed the states
// whose hull gave the loose response; -1: every ancestor).
long long refine_caps(const KeyGraph& graph, const std::vector<char>& open,
                      const std::vector<std::optional<Time>>& lower, const IntegerTimes& times, int k_next, int depth,
                      KeyCaps& caps);

}  // namespace gpuwcrt::abstraction
