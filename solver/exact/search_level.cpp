#include "solver/exact/search_level.hpp"

#include <algorithm>

namespace gpuwcrt::exact {

bool BeamAdmission::admit(SearchLevel& L, std::int64_t late, std::string_view set, std::uint32_t index,
                          long long& cut) {
    if (!admit_to_set(L, late, set, index, cut)) return false;
    if (per_level_ > 0 && !admit_to_level_cap(L, index, cut)) {
        undo_set_admission(L, set);
        return false;
    }
    return true;
}

// At most `per_set_` alive states per set of determined operations; a newcomer replaces the
// earliest one (smallest lateness) when it is later, else it is dropped.
bool BeamAdmission::admit_to_set(SearchLevel& L, std::int64_t late, std::string_view set, std::uint32_t index,
                                 long long& cut) {
    evicted_ = LevelStore::none;
    if (L.late.size() <= index) L.late.resize(index + 1);
    L.late[index] = late;
    std::vector<std::uint32_t>& kept = L.beams[std::string(set)];
    std::erase_if(kept, [&](std::uint32_t i) { return !L.states[i].alive; });
    if (static_cast<int>(kept.size()) >= per_set_) {
        auto earliest = std::min_element(kept.begin(), kept.end(),
                                         [&](std::uint32_t a, std::uint32_t b) { return L.late[a] < L.late[b]; });
        ++cut;
        if (L.late[*earliest] >= L.late[index]) return false;
        L.states[*earliest].alive = false;
        evicted_ = *earliest;
        kept.erase(earliest);
    }
    kept.push_back(index);
    return true;
}

// The newcomer admitted by admit_to_set is not stored after all (the level cap refused it): its
// index, which the next stored state will take, leaves the set, and the state it evicted comes
// back.
void BeamAdmission::undo_set_admission(SearchLevel& L, std::string_view set) {
    std::vector<std::uint32_t>& kept = L.beams[std::string(set)];
    kept.pop_back();
    if (evicted_ != LevelStore::none) {
        L.states[evicted_].alive = true;
        kept.push_back(evicted_);
    }
}

// The per-level cap: the latest states of the level (lateness, set by admit_to_set).
bool BeamAdmission::admit_to_level_cap(SearchLevel& L, std::uint32_t index, long long& cut) {
    while (!L.by_now.empty() && !L.states[L.by_now.top().second].alive) L.by_now.pop();
    if (static_cast<long long>(L.by_now.size()) >= per_level_) {
        ++cut;
        if (L.by_now.top().first >= L.late[index]) return false;
        L.states[L.by_now.top().second].alive = false;
        L.by_now.pop();
    }
    L.by_now.emplace(L.late[index], index);
    return true;
}

}  // namespace gpuwcrt::exact
