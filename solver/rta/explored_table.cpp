#include "solver/rta/explored_table.hpp"

#include <algorithm>
#include <new>

#include "common/hash_words.hpp"

namespace gpuwcrt::rta_orders {

std::uint64_t ExploredTable::hash(std::span<const std::int64_t> key) {
    const std::uint64_t h = hash_words(key);
    return h == 0 ? 1 : h;  // 0 marks an empty slot
}

std::size_t ExploredTable::find(std::span<const std::int64_t> key, std::uint64_t h) const {
    const std::size_t mask = hashes_.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
        if (hashes_[i] == 0) return i;
        if (hashes_[i] != h) continue;
        const std::int64_t* stored = arena_.data() + offsets_[i];
        if (static_cast<std::size_t>(stored[0]) == key.size() && std::equal(key.begin(), key.end(), stored + 1))
            return i;
    }
}

bool ExploredTable::contains(std::span<const std::int64_t> key) const {
    if (count_ == 0) return false;
    return hashes_[find(key, hash(key))] != 0;
}

bool ExploredTable::grow() {
    const std::size_t slots = hashes_.empty() ? 1u << 12 : hashes_.size() * 2;
    const std::size_t bytes =
        slots * (sizeof(std::uint64_t) + sizeof(std::uint32_t)) + arena_.capacity() * sizeof(std::int64_t);
    if (bytes > budget_) return false;
    try {
        std::vector<std::uint64_t> hashes(slots, 0);
        std::vector<std::uint32_t> offsets(slots, 0);
        for (std::size_t i = 0; i < hashes_.size(); ++i) {
            if (hashes_[i] == 0) continue;
            std::size_t j = hashes_[i] & (slots - 1);
            while (hashes[j] != 0) j = (j + 1) & (slots - 1);
            hashes[j] = hashes_[i];
            offsets[j] = offsets_[i];
        }
        hashes_ = std::move(hashes);
        offsets_ = std::move(offsets);
    } catch (const std::bad_alloc&) {
        return false;  // a full memo only costs re-explorations
    }
    return true;
}

void ExploredTable::insert(std::span<const std::int64_t> key) {
    // At most half full: lookups of absent keys (most of them) then probe about 2.5 slots.
    if ((count_ + 1) * 2 > hashes_.size() && !grow()) return;
    const std::uint64_t h = hash(key);
    const std::size_t i = find(key, h);
    if (hashes_[i] != 0) return;
    const std::size_t need = arena_.size() + key.size() + 1;
    if (need > arena_.capacity()) {
        const std::size_t capacity = std::max<std::size_t>(need, arena_.capacity() * 2);
        const std::size_t bytes =
            hashes_.size() * (sizeof(std::uint64_t) + sizeof(std::uint32_t)) + capacity * sizeof(std::int64_t);
        if (bytes > budget_ || capacity > UINT32_MAX) return;
        try {
            arena_.reserve(capacity);
        } catch (const std::bad_alloc&) {
            return;
        }
    }
    offsets_[i] = static_cast<std::uint32_t>(arena_.size());
    hashes_[i] = h;
    arena_.push_back(static_cast<std::int64_t>(key.size()));
    arena_.insert(arena_.end(), key.begin(), key.end());
    ++count_;
}

}  // namespace gpuwcrt::rta_orders
