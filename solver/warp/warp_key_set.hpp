#pragma once
// A set of fixed-width keys (a few 64-bit words each) with one parent index per key: the
// distinct states of one cycle of the frontier search. Keys live in one flat array in
// insertion order (so an index names a state for good) and an open-addressing table of
// indices deduplicates them: no node per state, and freeing a level is one deallocation.
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "common/hash_words.hpp"

namespace gpuwcrt {

class WarpKeySet {
public:
    explicit WarpKeySet(std::size_t words) : words_(words) { table_.assign(1024, 0); }

    std::size_t size() const { return parents_.size(); }
    std::size_t words() const { return words_; }
    const std::uint64_t* key(std::size_t i) const { return keys_.data() + i * words_; }
    std::uint32_t parent(std::size_t i) const { return parents_[i]; }
    // Heap bytes held, for the memory budget.
    std::size_t bytes() const {
        return keys_.capacity() * sizeof(std::uint64_t) + parents_.capacity() * sizeof(std::uint32_t) +
               table_.capacity() * sizeof(std::uint32_t);
    }

    // Adds `key` (with `parent`, kept from the first insertion) unless present.
    void insert(const std::uint64_t* key, std::uint32_t parent) {
        if ((size() + 1) * 2 > table_.size()) grow();
        std::size_t slot = hash(key) & (table_.size() - 1);
        while (const std::uint32_t at = table_[slot]) {
            if (equal(this->key(at - 1), key)) return;
            slot = (slot + 1) & (table_.size() - 1);
        }
        if (size() >= 0xFFFFFFFEu) throw std::length_error("more than 2^32 - 2 states in one cycle");
        table_[slot] = static_cast<std::uint32_t>(size() + 1);
        keys_.insert(keys_.end(), key, key + words_);
        parents_.push_back(parent);
    }

    // Drops the lookup table: the keys stay readable, nothing more is inserted.
    void freeze() { std::vector<std::uint32_t>().swap(table_); }

private:
    std::size_t hash(const std::uint64_t* key) const {
        return static_cast<std::size_t>(hash_words(std::span<const std::uint64_t>(key, words_)));
    }
    bool equal(const std::uint64_t* a, const std::uint64_t* b) const {
        for (std::size_t k = 0; k < words_; ++k)
            if (a[k] != b[k]) return false;
        return true;
    }
    void grow() {
        std::vector<std::uint32_t> t(table_.size() * 2, 0);
        for (std::size_t i = 0; i < size(); ++i) {
            std::size_t slot = hash(key(i)) & (t.size() - 1);
            while (t[slot]) slot = (slot + 1) & (t.size() - 1);
            t[slot] = static_cast<std::uint32_t>(i + 1);
        }
        table_ = std::move(t);
    }

    std::size_t words_;
    std::vector<std::uint64_t> keys_;
    std::vector<std::uint32_t> parents_;
    std::vector<std::uint32_t> table_;  // index + 1 into keys_, 0 = empty
};

}  // namespace gpuwcrt
