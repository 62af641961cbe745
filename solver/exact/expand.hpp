#pragma once
// Expanding a run of states of one level into a ChunkOutput (docs/theory/exact-engine.md, "Both
// cores"): every macro step from each state, depth first over its choices, each child
// canonicalised and encoded, each response with the path that reached it. The same for the
// search in one process (explorer.cpp) and across processes (distributed/, docs/theory/distributed.md).
// Runs on worker threads: it reads only the level being expanded, the problem and the pruning
// bound of the level, and writes only the output.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/budget.hpp"
#include "solver/exact/chunk_output.hpp"
#include "solver/exact/drain_bound.hpp"
#include "solver/exact/level_store.hpp"
#include "solver/exact/state.hpp"

namespace gpuwcrt::exact {

class FixedPointMode;

struct ExpandContext {
    const Problem& p;
    const Budget& budget;
    const DrainBound& drain;
    bool prune = false;  // drop states the drain bound proves useless against `best`
    // The largest responses found before the level (fixed while it is expanded).
    const std::vector<std::int64_t>& best;
    const std::vector<char>& found;
    bool beam = false;  // record each child's lateness and set of determined operations
    // Levels are steps from the initial state, and every step passes the mode (level_search.hpp).
    const FixedPointMode* fixed_point = nullptr;
};

// States [first, last) of `store`, a level's.
void expand_states(const ExpandContext& x, int level, const LevelStore& store, std::size_t first, std::size_t last,
                   ChunkOutput& out);

// How late a state is, for the beam (docs/theory/exact-engine.md, "Search, limits and beam"): over every
// thread slot of every SM, the instant it is available again (a running block's end, else `now`),
// summed in units of 32 threads.
std::int64_t lateness(const Problem& p, const State& s);

// A state's issue vector as varints (varint.hpp), and back.
void issue_bytes(const std::vector<std::int64_t>& issues, std::string& out);
void read_issues(std::string_view bytes, std::vector<std::int64_t>& out);

}  // namespace gpuwcrt::exact
