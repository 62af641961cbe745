#pragma once
// The states of one level (docs/theory/exact-engine.md, "Search"): their encoded keys and issue vectors
// in a chunked byte arena, a hash table from key to the group of states with that key (a Pareto
// set under `dominates`), and each state's `now` and record. Memory per state is the key's bytes
// plus about 70: the level is the unit that lives and dies together.
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gpuwcrt::exact {

class LevelStore {
public:
    static constexpr std::uint32_t none = 0xffffffffu;

    struct Entry {
        std::uint64_t at = 0;  // key bytes, then issue bytes: arena chunk << 32 | offset
        std::uint32_t key_len = 0, issues_len = 0;
        std::uint64_t hash = 0;
        std::int64_t now = 0;
        std::uint64_t path = 0;          // the hash of the decision path of its record (path_hash.hpp)
        std::uint32_t record = 0;        // the explorer's parent-link record
        std::uint32_t next_same = none;  // next state with the same key
        bool alive = true;
    };

    // First state with this key (follow next_same), or none.
    std::uint32_t find(std::string_view key, std::uint64_t hash) const;
    // Whether the states with a key, from `first_same` (find()'s answer) on, hold one with these
    // issue bytes and `now`: the same state.
    bool holds(std::uint32_t first_same, std::string_view issue_bytes, std::int64_t now) const;
    // Adds a state; `first_same` is find()'s answer for its key.
    std::uint32_t add(std::string_view key, std::uint64_t hash, std::string_view issue_bytes, std::int64_t now,
                      std::uint64_t path, std::uint32_t record, std::uint32_t first_same);

    Entry& operator[](std::uint32_t i) { return entries_[i]; }
    const Entry& operator[](std::uint32_t i) const { return entries_[i]; }
    std::size_t size() const { return entries_.size(); }
    std::string_view key(const Entry& e) const { return {ptr(e.at), e.key_len}; }
    std::string_view issues(const Entry& e) const { return {ptr(e.at) + e.key_len, e.issues_len}; }
    // What the store holds: its entries, arena chunks and hash table.
    std::size_t bytes() const { return entries_.size() * sizeof(Entry) + chunk_bytes_ + slots_.capacity() * 4; }

private:
    // Chunks grow from 64 KiB to 16 MiB: a small level (most of them, in the tests) costs little.
    static constexpr std::size_t first_chunk = std::size_t(1) << 16, max_chunk = std::size_t(1) << 24;
    const char* ptr(std::uint64_t at) const { return chunks_[at >> 32].get() + (at & 0xffffffffu); }
    void grow();

    std::deque<Entry> entries_;
    std::vector<std::unique_ptr<char[]>> chunks_;
    std::size_t chunk_size_ = 0, used_ = 0;  // of the last chunk
    std::size_t chunk_bytes_ = 0;            // of every chunk
    std::vector<std::uint32_t> slots_;       // open addressing: first state of a key + 1, or 0
    std::size_t keys_ = 0;
};

}  // namespace gpuwcrt::exact
