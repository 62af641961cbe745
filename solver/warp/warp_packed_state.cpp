#include "solver/warp/warp_packed_state.hpp"

#include <bit>
#include <stdexcept>

namespace gpuwcrt {

WarpStatePacker::WarpStatePacker(const WarpStepper& step) : warps_(step.problem().warps) {
    const auto& instr = step.program();
    const int P = step.length();
    const std::size_t slots = static_cast<std::size_t>(step.problem().max_latency());
    state_size_ = static_cast<std::size_t>(P) * slots + 1;
    finished_ = state_size_ - 1;
    bits_ = static_cast<unsigned>(std::bit_width(static_cast<unsigned>(warps_)));
    mask_ = (std::uint64_t{1} << bits_) - 1;
    const unsigned per_word = 64 / bits_;
    std::size_t live = 0;
    for (int p = 0; p < P; ++p)
        for (std::size_t w = 0; w < slots; ++w) {
            const std::size_t i = static_cast<std::size_t>(p) * slots + w;
            // apply() puts a warp that issued p - 1 at wait latency(p - 1) - 1 and counts down.
            const bool can_hold =
                p == 0 ? w == 0 : w < static_cast<std::size_t>(instr[static_cast<std::size_t>(p - 1)].latency);
            if (!can_hold) {
                dead_.push_back(i);
                continue;
            }
            fields_.push_back({i, live / per_word, static_cast<unsigned>(live % per_word) * bits_});
            ++live;
        }
    words_ = live == 0 ? 1 : (live + per_word - 1) / per_word;
}

void WarpStatePacker::pack(const WarpState& s, std::uint64_t* key) const {
    for (std::size_t k = 0; k < words_; ++k) key[k] = 0;
    for (const auto& f : fields_) key[f.word] |= static_cast<std::uint64_t>(s[f.index]) << f.shift;
    for (std::size_t i : dead_)
        if (s[i] != 0) throw std::logic_error("warp state has a warp at a wait no instruction gives");
}

void WarpStatePacker::unpack(const std::uint64_t* key, WarpState& s) const {
    s.assign(state_size_, 0);
    int rest = warps_;
    for (const auto& f : fields_) {
        const auto v = static_cast<std::uint16_t>((key[f.word] >> f.shift) & mask_);
        s[f.index] = v;
        rest -= v;
    }
    s[finished_] = static_cast<std::uint16_t>(rest);
}

}  // namespace gpuwcrt
