#include "report/gantt_layout.hpp"

#include <algorithm>
#include <map>
#include <optional>

namespace gpuwcrt {

std::vector<std::int64_t> pack_block_offsets(const Workload& w, const Schedule& s) {
    const std::int64_t cap = w.platform.threads_per_sm;
    std::vector<std::int64_t> offset(s.blocks.size(), 0);
    std::map<int, std::vector<std::size_t>> by_sm;
    for (std::size_t i = 0; i < s.blocks.size(); ++i) by_sm[s.blocks[i].sm].push_back(i);
    auto threads = [&](std::size_t i) { return w.ops[s.blocks[i].kernel].threads; };
    for (auto& [sm, idx] : by_sm) {
        std::stable_sort(idx.begin(), idx.end(),
                         [&](std::size_t a, std::size_t b) { return s.blocks[a].start < s.blocks[b].start; });
        std::vector<std::size_t> active;
        for (std::size_t i : idx) {
            const BlockTiming& b = s.blocks[i];
            std::erase_if(active, [&](std::size_t a) { return s.blocks[a].end <= b.start; });
            const std::int64_t n = threads(i);
            auto free_at = [&](std::int64_t lo) {
                return lo >= 0 && std::none_of(active.begin(), active.end(), [&](std::size_t a) {
                           return lo < offset[a] + threads(a) && offset[a] < lo + n;
                       });
            };
            // Candidates touch a lane edge or an active block. Leaning on whatever stays longest
            // (an edge stays forever) keeps the free space in one piece when neighbours end, so
            // later blocks still find a contiguous range (dynamic storage allocation is NP-hard;
            // this heuristic only has to look right). Ties go to the lowest offset.
            struct Candidate {
                std::int64_t lo;
                std::optional<Time> neighbour_end;
            };  // nullopt: an edge
            std::vector<Candidate> cands{{0, std::nullopt}, {cap - n, std::nullopt}};
            for (std::size_t a : active) {
                cands.push_back({offset[a] + threads(a), s.blocks[a].end});
                cands.push_back({offset[a] - n, s.blocks[a].end});
            }
            auto better = [](const Candidate& x, const Candidate& y) {
                if (x.neighbour_end.has_value() != y.neighbour_end.has_value()) return !x.neighbour_end.has_value();
                if (x.neighbour_end && *x.neighbour_end != *y.neighbour_end) return *x.neighbour_end > *y.neighbour_end;
                return x.lo < y.lo;
            };
            std::optional<Candidate> best;
            for (const Candidate& c : cands)
                if (c.lo + n <= cap && free_at(c.lo) && (!best || better(c, *best))) best = c;
            if (!best) {  // no room within the lane (fragmented): stack above, the lane grows
                std::int64_t top = 0;
                for (std::size_t a : active) top = std::max(top, offset[a] + threads(a));
                best = Candidate{top, std::nullopt};
            }
            offset[i] = best->lo;
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
    const BigInt hundredths =
        boost::multiprecision::numerator(pixels) * 100 / boost::multiprecision::denominator(pixels);
    return human_string(Time(hundredths, 100));
}

}  // namespace gpuwcrt
