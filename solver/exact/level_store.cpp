#include "solver/exact/level_store.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace gpuwcrt::exact {

std::uint32_t LevelStore::find(std::string_view key, std::uint64_t hash) const {
    if (slots_.empty()) return none;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
        const std::uint32_t s = slots_[i];
        if (s == 0) return none;
        const Entry& e = entries_[s - 1];
        if (e.hash == hash && this->key(e) == key) return s - 1;
    }
}

bool LevelStore::holds(std::uint32_t first_same, std::string_view issue_bytes, std::int64_t now) const {
    for (std::uint32_t i = first_same; i != none; i = entries_[i].next_same)
        if (entries_[i].now == now && issues(entries_[i]) == issue_bytes) return true;
    return false;
}

void LevelStore::grow() {
    std::vector<std::uint32_t> old = std::move(slots_);
    slots_.assign(old.empty() ? 1024 : old.size() * 2, 0);
    const std::size_t mask = slots_.size() - 1;
    for (std::uint32_t s : old) {
        if (s == 0) continue;
        std::size_t i = entries_[s - 1].hash & mask;
        while (slots_[i] != 0) i = (i + 1) & mask;
        slots_[i] = s;
    }
}

std::uint32_t LevelStore::add(std::string_view key, std::uint64_t hash, std::string_view issue_bytes, std::int64_t now,
                              std::uint64_t path, std::uint32_t record, std::uint32_t first_same) {
    const std::size_t bytes = key.size() + issue_bytes.size();
    if (bytes > max_chunk) throw std::length_error("exact engine: a state key longer than the arena's chunk");
    if (chunks_.empty() || used_ + bytes > chunk_size_) {
        chunk_size_ = chunks_.empty() ? first_chunk : std::min(max_chunk, chunk_size_ * 2);
        while (chunk_size_ < bytes) chunk_size_ *= 2;
        chunks_.push_back(std::make_unique_for_overwrite<char[]>(chunk_size_));
        chunk_bytes_ += chunk_size_;
        used_ = 0;
    }
    char* at = chunks_.back().get() + used_;
    std::memcpy(at, key.data(), key.size());
    std::memcpy(at + key.size(), issue_bytes.data(), issue_bytes.size());
    if (entries_.size() >= none - 1) throw std::length_error("exact engine: more than 2^32 states in one level");
    const auto index = static_cast<std::uint32_t>(entries_.size());
    Entry e;
    e.at = (static_cast<std::uint64_t>(chunks_.size() - 1) << 32) | used_;
    e.key_len = static_cast<std::uint32_t>(key.size());
    e.issues_len = static_cast<std::uint32_t>(issue_bytes.size());
    e.hash = hash;
    e.now = now;
    e.path = path;
    e.record = record;
    e.next_same = first_same;
    entries_.push_back(e);
    used_ += bytes;
    // The newest state of a key heads its group: the table points to it.
    if (first_same != none) {
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = hash & mask;; i = (i + 1) & mask)
            if (slots_[i] == first_same + 1) {
                slots_[i] = index + 1;
                return index;
            }
    }
    if ((keys_ + 1) * 2 > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = hash & mask;
    while (slots_[i] != 0) i = (i + 1) & mask;
    slots_[i] = index + 1;
    ++keys_;
    return index;
}

}  // namespace gpuwcrt::exact
