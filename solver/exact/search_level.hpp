#pragma once
// One level of the level search (level_search.hpp): its states (level_store.hpp) and, for the
// beam (docs/theory/exact-engine.md, "Search, limits and beam"), which of them it keeps: at most `beam`
// alive states per set of determined operations and, with a level cap, at most that many per
// level, the latest ones (largest lateness, expand.hpp) in each case.
#include <cstdint>
#include <functional>
#include <queue>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "solver/exact/level_store.hpp"

namespace gpuwcrt::exact {

struct SearchLevel {
    LevelStore states;
    // Beam with a per-level cap: the alive states by lateness, earliest on top (dead ones popped lazily).
    std::priority_queue<std::pair<std::int64_t, std::uint32_t>, std::vector<std::pair<std::int64_t, std::uint32_t>>,
                        std::greater<>>
        by_now;
    std::vector<std::int64_t> late;                                     // beam: lateness of each state
    std::unordered_map<std::string, std::vector<std::uint32_t>> beams;  // determined set -> alive states

    // What the level holds; the beam's sets counted at a map node, a set and a few indexes each.
    std::size_t bytes(std::size_t set_len) const {
        return states.bytes() + by_now.size() * 16 + late.capacity() * 8 + beams.size() * (96 + set_len) +
               (beams.empty() ? 0 : states.size() * 4);
    }
};

// The beam's admission of new states into their level.
class BeamAdmission {
public:
    BeamAdmission(int per_set, long long per_level) : per_set_(per_set), per_level_(per_level) {}

    // Whether the newcomer, of lateness `late` and set `set`, stays as state `index` of `L` (the
    // next one stored): a state it evicts is retired (alive = false). `cut` counts the states
    // the beam dropped or evicted.
    bool admit(SearchLevel& L, std::int64_t late, std::string_view set, std::uint32_t index, long long& cut);

private:
    bool admit_to_set(SearchLevel& L, std::int64_t late, std::string_view set, std::uint32_t index, long long& cut);
    void undo_set_admission(SearchLevel& L, std::string_view set);
    bool admit_to_level_cap(SearchLevel& L, std::uint32_t index, long long& cut);

    int per_set_;
    long long per_level_;
    std::uint32_t evicted_ = LevelStore::none;  // the state the last set admission evicted, if any
};

}  // namespace gpuwcrt::exact
