#include "solver/exact/pareto.hpp"

#include "solver/exact/expand.hpp"
#include "solver/exact/state.hpp"

namespace gpuwcrt::exact {

Placement place_state(LevelStore& store, std::string_view key, std::uint64_t hash, std::string_view issues,
                      std::uint64_t path, bool canonical, PlacementScratch& scratch, long long& dominated) {
    read_issues(issues, scratch.incoming);
    const std::uint32_t first = store.find(key, hash);
    for (std::uint32_t i = first; i != LevelStore::none; i = store[i].next_same) {
        const LevelStore::Entry& e = store[i];
        if (!e.alive) continue;
        // Varints are unique: equal bytes, equal vectors.
        if (store.issues(e) == issues) {
            ++dominated;
            if (canonical && path < e.path) return {Placement::Kind::replaces, i};
            return {Placement::Kind::dropped, i};
        }
        read_issues(store.issues(e), scratch.stored);
        if (dominates(scratch.stored, scratch.incoming)) {
            ++dominated;
            return {Placement::Kind::dropped, i};
        }
    }
    for (std::uint32_t i = first; i != LevelStore::none; i = store[i].next_same) {
        if (!store[i].alive) continue;
        read_issues(store.issues(store[i]), scratch.stored);
        if (dominates(scratch.incoming, scratch.stored)) {
            store[i].alive = false;
            ++dominated;
        }
    }
    return {Placement::Kind::added, first};
}

}  // namespace gpuwcrt::exact
