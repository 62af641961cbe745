#pragma once
// One exploration of the abstract graph, level by level (|S| = operations dispatched), only two
// levels in memory. Every operation's bound is the largest response of any edge that
// dispatches it: every concrete run follows some path, so the maximum over all edges covers it.
#include <chrono>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "bounds/abstraction/problem.hpp"
#include "bounds/abstraction/state.hpp"
#include "common/budget.hpp"

namespace gpuwcrt::abstraction {

using KeyCaps = std::unordered_map<Key, int, KeyHash>;

struct ExploreOptions {
    int states_per_set = 4;         // K: abstract states kept per key S (for keys not in `caps`)
    int partial_cap = 8;            // placement branches kept per block within one kernel's dispatch
    const KeyCaps* caps = nullptr;  // targeted refinement: K per key (any K per key is sound)
    bool record_edges = false;      // fill ExploreResult::edges (for targeted refinement)
    bool shift_merge = false;       // time-shift merging where Problem::translation_invariant
};

// The graph of one exploration, per key its outgoing edges (target key, operation dispatched,
// largest response of any state's edge there, in ticks).
struct KeyEdge {
    Key to;
    int op = 0;
    std::int64_t response = 0;
};
using KeyGraph = std::unordered_map<Key, std::vector<KeyEdge>, KeyHash>;

struct ExploreResult {
    bool complete = false;       // false: the deadline or the memory budget came first; no bound holds
    bool out_of_memory = false;  // the levels reached Budget::memory_bytes
    std::vector<std::optional<std::int64_t>> upper;  // per operation, ticks (complete only)
    long long states = 0, edges = 0, merges = 0;
    std::size_t widest_level = 0;  // most keys S in one level
    KeyGraph graph;                // record_edges only
};

ExploreResult explore(const Problem& p, const ExploreOptions& o, const Budget& budget);

}  // namespace gpuwcrt::abstraction
