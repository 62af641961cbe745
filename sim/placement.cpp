#include "sim/placement.hpp"

#include <algorithm>
#include <stdexcept>

namespace gpuwcrt {
namespace {

// SMs are interchangeable: two SMs with the same occupancy and the same running blocks (end
// time and kernel demand) lead to schedules that differ only by renaming SMs.
std::vector<int> distinct_states(const SimState& s, const std::vector<int>& fitting) {
    using Key = std::vector<std::pair<Time, int>>;
    std::vector<Key> keys(s.sm.size());
    for (const auto& [end, b] : s.running_blocks) keys[b.sm].emplace_back(end, b.kernel);
    std::vector<int> out;
    for (int c : fitting) {
        bool same = false;
        for (int o : out) same = same || (s.sm[o] == s.sm[c] && keys[o] == keys[c]);
        if (!same) out.push_back(c);
    }
    return out;
}

}  // namespace

int place_block(SimState& s, int kernel, std::int64_t block, const std::vector<int>& fitting) {
    const Platform& p = s.w.platform;
    if (kernel < static_cast<int>(s.scenario.fixed_sm.size()) && !s.scenario.fixed_sm[kernel].empty()) {
        const int sm = s.scenario.fixed_sm[kernel][block];
        if (std::find(fitting.begin(), fitting.end(), sm) == fitting.end())
            throw InputError(s.scenario.fixed_where,
                             "the fixed placement puts block " + std::to_string(block) + " of '" +
                                 s.w.ops[kernel].name + "' on SM " + std::to_string(sm) +
                                 ", where it does not fit at that moment");
        return sm;
    }
    switch (s.scenario.policy) {
        case Policy::first_fit:
            return fitting.front();
        case Policy::most_room: {
            const BlockDemand d = s.w.ops[kernel].demand();
            int best = fitting.front();
            for (int c : fitting)
                if (s.sm[c].room_for(d, p) > s.sm[best].room_for(d, p)) best = c;
            return best;
        }
        case Policy::round_robin: {
            const int n = static_cast<int>(s.sm.size());
            for (int step = 1; step <= n; ++step) {
                int c = ((s.round_robin_last + step) % n + n) % n;
                if (std::find(fitting.begin(), fitting.end(), c) != fitting.end()) return c;
            }
            return fitting.front();
        }
        case Policy::chooser: {
            PlacementRequest req{kernel, block, fitting, distinct_states(s, fitting)};
            int c = s.scenario.choose(req);
            if (std::find(fitting.begin(), fitting.end(), c) == fitting.end())
                throw std::logic_error("SM chooser picked SM " + std::to_string(c) + " for block " +
                                       std::to_string(block) + " of '" + s.w.ops[kernel].name +
                                       "', where it does not fit");
            return c;
        }
    }
    return fitting.front();
}

}  // namespace gpuwcrt
