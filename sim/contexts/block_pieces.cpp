#include "sim/contexts/block_pieces.hpp"

#include <algorithm>

#include "model/time_less.hpp"

namespace gpuwcrt {

std::vector<std::pair<Time, Time>> block_pieces(const Workload& w, const Schedule& s, const BlockTiming& b) {
    if (!w.sliced()) return {{b.start, b.end}};
    const int context = w.streams[w.ops[b.kernel].stream].context;
    std::vector<std::pair<Time, Time>> out;
    for (const ContextSlice& c : s.slices) {
        if (c.context != context) continue;
        const Time& from = std::max(c.start, b.start, TimeLess{});
        const Time& to = std::min(c.end, b.end, TimeLess{});
        if (time_less(from, to)) out.emplace_back(from, to);
    }
    return out;
}

}  // namespace gpuwcrt
