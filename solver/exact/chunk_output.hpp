#pragma once
// What expanding a run of states of one level produces (docs/theory/exact-engine.md, "Both cores"): the
// children and the responses found, in the order a single thread would have found them, so that
// merging chunks in chunk order gives the same stored states, records and witnesses whatever the
// number of threads and however they were scheduled.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/budget.hpp"

namespace gpuwcrt::exact {

// A new state as the search stores it (level_search.hpp), from an expanded chunk or, across
// processes (docs/theory/distributed.md), from the process that found it: its level, `now`, path hash
// (path_hash.hpp), its parent's record (in the process that found it), the decisions of its step,
// its key and issue bytes, and for the beam its lateness and set of determined operations.
struct ChildView {
    int level = 0;
    std::int64_t now = 0;
    std::uint64_t path = 0;
    std::uint32_t from = 0;
    const int* choice = nullptr;
    std::size_t choice_len = 0;
    std::string_view key, issues;
    std::int64_t lateness = 0;
    std::string_view set;
};

struct ChunkOutput {
    struct Child {
        int level = 0;
        std::uint64_t hash = 0;
        std::int64_t now = 0;
        std::int64_t lateness = 0;                                             // beam only
        std::uint64_t path = 0;                                                // path_hash.hpp
        std::uint32_t from = 0;                                                // the parent's record
        std::uint32_t bytes_at = 0, key_len = 0, issues_len = 0, set_len = 0;  // in `bytes`
        std::uint32_t choice_at = 0, choice_len = 0;                           // in `choices`
    };
    struct Response {
        int op = 0;
        std::int64_t response = 0;
        std::uint64_t path = 0;  // of the step that determined it (path_hash.hpp)
        std::uint32_t from = 0;
        std::uint32_t choice_at = 0, choice_len = 0;
    };
    std::vector<Child> children;
    std::vector<Response> responses;
    std::string bytes;         // per child: key, issue varints, (beam) determined-set bytes
    std::vector<int> choices;  // per child / response: the decisions of its step
    long long expansions = 0, steps = 0, pruned = 0;
    std::optional<StopReason> stop;  // the chunk is incomplete, the search stops
    bool ended = false;              // a FixedPointMode ended the search (level_search.hpp)

    std::string_view key(const Child& c) const { return {bytes.data() + c.bytes_at, c.key_len}; }
    std::string_view issues(const Child& c) const { return {bytes.data() + c.bytes_at + c.key_len, c.issues_len}; }
    std::string_view set(const Child& c) const {
        return {bytes.data() + c.bytes_at + c.key_len + c.issues_len, c.set_len};
    }
    ChildView view(const Child& c) const {
        return {c.level,      c.now,  c.path,    c.from,     choices.data() + c.choice_at,
                c.choice_len, key(c), issues(c), c.lateness, set(c)};
    }
    std::vector<int> choice(std::uint32_t at, std::uint32_t len) const {
        return {choices.begin() + at, choices.begin() + at + len};
    }
};

}  // namespace gpuwcrt::exact
