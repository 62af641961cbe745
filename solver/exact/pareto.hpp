#pragma once
// Where a new state goes among the stored states of its level with the same key
// (docs/theory/exact-engine.md, "Merge and dominance" and "Canonical witnesses"): dropped when a stored
// state dominates it, else stored after retiring the states it dominates. Of two states with the
// same key and the same issue vector (the same future), the one reached by the path first in the
// canonical order (path_hash.hpp) is kept, so that which one stays does not depend on the order
// in which they arrive.
#include <cstdint>
#include <string_view>
#include <vector>

#include "solver/exact/level_store.hpp"

namespace gpuwcrt::exact {

struct Placement {
    enum class Kind { dropped, replaces, added } kind = Kind::added;
    // replaces: the stored state with the same key and issue vector whose record, `now` and path
    // the newcomer's take over; added: find()'s answer for the key (LevelStore::add's first_same).
    std::uint32_t index = LevelStore::none;
};

// A `replaces` placement: the stored state takes the newcomer's record, `now` and path.
inline void take_over(LevelStore::Entry& stored, std::uint32_t record, std::int64_t now, std::uint64_t path) {
    stored.record = record;
    stored.now = now;
    stored.path = path;
}

// Scratch vectors of place_state, kept by its caller so that they are allocated once.
struct PlacementScratch {
    std::vector<std::int64_t> incoming, stored;
};

// Retires (alive = false) the stored states the newcomer dominates when it is not dropped;
// `dominated` counts the states dropped or retired. `canonical` false: an equal stored state
// always stays (the beam, whose bookkeeping follows each stored state).
Placement place_state(LevelStore& store, std::string_view key, std::uint64_t hash, std::string_view issues,
                      std::uint64_t path, bool canonical, PlacementScratch& scratch, long long& dominated);

}  // namespace gpuwcrt::exact
