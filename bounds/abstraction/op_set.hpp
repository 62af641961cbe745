#pragma once
// The key S of the exploration: which operations are dispatched (kernels fully, copies started).
// Any number of operations: the first 128 live in two inline words, so that a key of a workload
// that small is copied, compared and hashed without touching the heap (keys are made on every
// edge); operations from 128 on go to words on the heap, allocated only once one of them is set.
#include <array>
#include <bit>
#include <cstdint>
#include <vector>

namespace gpuwcrt::abstraction {

class OpSet {
public:
    static constexpr int inline_bits = 128;

    bool has(int op) const {
        const std::uint64_t bit = std::uint64_t(1) << (op & 63);
        if (op < inline_bits) return low_[static_cast<std::size_t>(op >> 6)] & bit;
        const std::size_t word = static_cast<std::size_t>((op - inline_bits) >> 6);
        return word < high_.size() && (high_[word] & bit);
    }
    OpSet with(int op) const {
        OpSet s = *this;
        const std::uint64_t bit = std::uint64_t(1) << (op & 63);
        if (op < inline_bits) {
            s.low_[static_cast<std::size_t>(op >> 6)] |= bit;
        } else {
            // Only ever grown: every set holding the same operations has the same number of
            // words (up to its highest operation's), so == and the hash may compare them as stored.
            const std::size_t word = static_cast<std::size_t>((op - inline_bits) >> 6);
            if (s.high_.size() <= word) s.high_.resize(word + 1, 0);
            s.high_[word] |= bit;
        }
        return s;
    }
    int count() const {
        int c = std::popcount(low_[0]) + std::popcount(low_[1]);
        for (const std::uint64_t word : high_) c += std::popcount(word);
        return c;
    }
    const std::array<std::uint64_t, 2>& inline_words() const { return low_; }
    const std::vector<std::uint64_t>& heap_words() const { return high_; }  // operations 128 on
    std::size_t heap_bytes() const { return high_.capacity() * sizeof(std::uint64_t); }
    bool operator==(const OpSet&) const = default;

private:
    std::array<std::uint64_t, 2> low_{};
    std::vector<std::uint64_t> high_;
};

inline bool has(const OpSet& s, int op) { return s.has(op); }
inline OpSet with(const OpSet& s, int op) { return s.with(op); }

}  // namespace gpuwcrt::abstraction
