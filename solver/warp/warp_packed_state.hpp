#pragma once
// A count vector (WarpState) packed into a few 64-bit words, for searches that keep millions of
// states: only the entries that can be non-zero are stored (a warp at program counter p waits
// at most the latency of instruction p - 1; the finished count is W minus the rest), each in
// just enough bits for W. The packing is a bijection on reachable states, so deduplicating
// packed keys deduplicates states.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/warp/warp_step.hpp"

namespace gpuwcrt {

class WarpStatePacker {
public:
    explicit WarpStatePacker(const WarpStepper& step);

    std::size_t words() const { return words_; }
    // Throws std::logic_error when `s` has a warp where none can be (a stepper bug).
    void pack(const WarpState& s, std::uint64_t* key) const;
    void unpack(const std::uint64_t* key, WarpState& s) const;

private:
    struct Field {
        std::size_t index;  // into the WarpState
        std::size_t word;
        unsigned shift;
    };
    std::vector<Field> fields_;
    std::vector<std::size_t> dead_;  // entries that are always zero
    std::size_t words_ = 1, state_size_ = 0, finished_ = 0;
    unsigned bits_ = 1;
    std::uint64_t mask_ = 1;
    int warps_ = 1;
};

}  // namespace gpuwcrt
