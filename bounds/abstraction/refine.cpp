#include "bounds/abstraction/refine.hpp"

#include <unordered_map>

namespace gpuwcrt::abstraction {

long long refine_caps(const KeyGraph& graph, const std::vector<char>& open,
                      const std::vector<std::optional<Time>>& lower, const IntegerTimes& times, int k_next, int depth,
                      KeyCaps& caps) {
    // Edges go from |S| to |S| + 1: deciding the keys of the deepest level first sees every
    // successor's answer before its predecessors ask.
    std::vector<std::vector<const KeyGraph::value_type*>> by_level;
    for (const auto& entry : graph) {
        const auto level = static_cast<std::size_t>(entry.first.s.count());
        if (by_level.size() <= level) by_level.resize(level + 1);
        by_level[level].push_back(&entry);
    }
    std::unordered_map<Key, int, KeyHash> hot;  // key -> levels above its nearest loose edge
    for (std::size_t l = by_level.size(); l-- > 0;)
        for (const auto* entry : by_level[l]) {
            int nearest = -1;
            for (const KeyEdge& e : entry->second) {
                if (open[e.op] && (!lower[e.op] || times.to_time(e.response) > *lower[e.op])) {
                    nearest = 0;
                    break;
                }
                if (const auto it = hot.find(e.to); it != hot.end() && (depth < 0 || it->second < depth))
                    nearest = nearest < 0 ? it->second + 1 : std::min(nearest, it->second + 1);
            }
            if (nearest >= 0) hot.emplace(entry->first, nearest);
        }
    for (const auto& [k, d] : hot) caps[k] = k_next;
    return static_cast<long long>(hot.size());
}

}  // namespace gpuwcrt::abstraction
