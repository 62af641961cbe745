#include "report/gantt_layout.hpp"

#include <algorithm>
#include <map>

namespace gpuwcrt {

std::vector<std::int64_t> pack_block_offsets(const Workload& w, const Schedule& s) {
    std::vector<std::int64_t> offset(s.blocks.size(), 0);
    std::map<int, std::vector<std::size_t>> by_sm;
    for (std::size_t i = 0; i < s.blocks.size(); ++i) by_sm[s.blocks[i].sm].push_back(i);
    for (auto& [sm, idx] : by_sm) {
        std::stable_sort(idx.begin(), idx.end(),
                         [&](std::size_t a, std::size_t b) { return s.blocks[a].start < s.blocks[b].start; });
        std::vector<std::size_t> active;
        for (std::size_t i : idx) {
            const BlockTiming& b = s.blocks[i];
            std::erase_if(active, [&](std::size_t a) { return s.blocks[a].end <= b.start; });
            const std::int64_t n = w.ops[b.kernel].threads;
            auto overlaps = [&](std::int64_t lo) {
                return std::any_of(active.begin(), active.end(), [&](std::size_t a) {
                    const std::int64_t alo = offset[a], ahi = alo + w.ops[s.blocks[a].kernel].threads;
                    return lo < ahi && alo < lo + n;
                });
            };
            // The lowest free range starts at 0 or right above an active block.
            std::vector<std::int64_t> candidates{0};
            for (std::size_t a : active) candidates.push_back(offset[a] + w.ops[s.blocks[a].kernel].threads);
            std::sort(candidates.begin(), candidates.end());
            for (std::int64_t c : candidates)
                if (!overlaps(c)) {
                    offset[i] = c;
                    break;
                }
            active.push_back(i);
        }
    }
    return offset;
}

Time tick_step(const Time& span, int max_ticks) {
    Time step(1, 1000000);
    const int mantissa[] = {1, 2, 5};
    for (int k = 0;; ++k) {
        Time candidate = step * mantissa[k % 3];
        if (span / candidate <= max_ticks) return candidate;
        if (k % 3 == 2) step *= 10;
    }
}

std::string px(const Time& pixels) {
    const BigInt hundredths = boost::multiprecision::numerator(pixels) * 100 /
                              boost::multiprecision::denominator(pixels);
    return human_string(Time(hundredths, 100));
}

}  // namespace gpuwcrt
