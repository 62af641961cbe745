#pragma once
// The branch and bound's memo of explored (kernel set, state) keys (docs/theory/rta/rta-soundness.md,
// "Same state, same set"): a flat open-addressing table
// of 64-bit hashes pointing into one arena that holds every key in full. Keys are compared
// word by word, never by hash alone: a false "already explored" would lose orders, whereas a
// key not stored (the memory budget is spent) only costs a re-exploration. No allocation per
// lookup; the table and the arena grow geometrically within the budget.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace gpuwcrt::rta_orders {

class ExploredTable {
public:
    explicit ExploredTable(std::size_t budget_bytes) : budget_(budget_bytes) {}

    bool contains(std::span<const std::int64_t> key) const;
    // Stores the key unless the budget is spent (then nothing happens).
    void insert(std::span<const std::int64_t> key);
    std::size_t size() const { return count_; }

private:
    static std::uint64_t hash(std::span<const std::int64_t> key);
    // Slot index of `key`, or of the empty slot where it would go.
    std::size_t find(std::span<const std::int64_t> key, std::uint64_t h) const;
    bool grow();  // false when the budget (or the allocator) refuses

    std::size_t budget_;
    // Per slot: the key's hash (0 = empty; a hash of 0 is stored as 1) and its arena offset.
    std::vector<std::uint64_t> hashes_;
    std::vector<std::uint32_t> offsets_;
    std::vector<std::int64_t> arena_;  // per key: its length, then its words
    std::size_t count_ = 0;
};

}  // namespace gpuwcrt::rta_orders
