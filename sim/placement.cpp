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
    for (const auto& [end, blocks] : s.running_blocks)
        for (const RunningBlock& b : blocks) keys[b.sm].emplace_back(end, b.kernel);
    std::vector<int> out;
    for (int c : fitting) {
        bool same = false;
        for (int o : out) same = same || (s.sm[o] == s.sm[c] && keys[o] == keys[c]);
        if (!same) out.push_back(c);
    }
    return out;
}

}  // namespace

int policy_sm(Policy policy, const std::vector<SmUsage>& sms, const BlockDemand& d, const Platform& p,
              int round_robin_last) {
    const int n = static_cast<int>(sms.size());
    int pick = -1;
    switch (policy) {
        case Policy::first_fit:
            for (int i = 0; i < n && pick < 0; ++i)
                if (sms[i].fits(d, p)) pick = i;
            return pick;
        case Policy::most_room:  // ties go to the lowest index
            for (int i = 0; i < n; ++i)
                if (sms[i].fits(d, p) && (pick < 0 || sms[i].room_for(d, p) > sms[pick].room_for(d, p))) pick = i;
            return pick;
        case Policy::round_robin:  // the next SM after the previous block's, skipping those where it does not fit
            for (int step = 1; step <= n && pick < 0; ++step) {
                const int i = ((round_robin_last + step) % n + n) % n;
                if (sms[i].fits(d, p)) pick = i;
            }
            return pick;
        case Policy::chooser:
            break;
    }
    throw std::logic_error("policy_sm: the chooser is not a fixed policy");
}

int place_block(SimState& s, int kernel, std::int64_t block, const std::vector<int>& fitting) {
    if (kernel < static_cast<int>(s.scenario.fixed_sm.size()) && !s.scenario.fixed_sm[kernel].empty()) {
        const int sm = s.scenario.fixed_sm[kernel][block];
        if (std::find(fitting.begin(), fitting.end(), sm) == fitting.end())
            throw InputError(s.scenario.fixed_where, "the fixed placement puts block " + std::to_string(block) +
                                                         " of '" + s.w.ops[kernel].name + "' on SM " +
                                                         std::to_string(sm) + ", where it does not fit at that moment");
        return sm;
    }
    if (s.scenario.policy == Policy::chooser) {
        PlacementRequest req{kernel, block, fitting, distinct_states(s, fitting)};
        const int c = s.scenario.choose(req);
        if (std::find(fitting.begin(), fitting.end(), c) == fitting.end())
            throw std::logic_error("SM chooser picked SM " + std::to_string(c) + " for block " + std::to_string(block) +
                                   " of '" + s.w.ops[kernel].name + "', where it does not fit");
        return c;
    }
    const int sm = policy_sm(s.scenario.policy, s.sm, s.w.ops[kernel].demand(), s.w.platform, s.round_robin_last);
    if (sm < 0) throw std::logic_error("placement policy found no SM for a block that fits");
    return sm;
}

}  // namespace gpuwcrt
