#include "solver/exact/drain_bound.hpp"

#include <algorithm>
#include <optional>

#include "model/checked_int.hpp"

namespace gpuwcrt::exact {

DrainBound::DrainBound(const Problem& p) : p_(p), per_gpu_(p.n, 0) {
    applies_ = !p.eager && p.n > 0;
    int queue = -1;
    for (int i = 0; i < p.n && applies_; ++i) {
        // A wait holds a kernel out of the queue while others pass it: the proof does not cover it.
        if (!p.kernel[i] || (queue >= 0 && p.queue[i] != queue) || !p.waits[i].empty()) {
            applies_ = false;
            break;
        }
        queue = p.queue[i];
        const std::int64_t per_sm = SmUsage{}.room_for(p.classes[p.demand_class[i]], p.w->platform);
        if (per_sm <= 0) applies_ = false;
        else per_gpu_[i] = per_sm * p.w->platform.sms;
    }
    // Every bound is at most the horizon sum: refuse pruning rather than risk an overflow.
    if (applies_) {
        std::optional<std::int64_t> total = std::int64_t(1) << 52;  // covers `now` and block ends (< 2^50 ticks)
        for (int i = 0; i < p.n && total; ++i) {
            const auto rounds = checked_mul((p.blocks[i] + per_gpu_[i] - 1) / per_gpu_[i] + 1, p.duration[i]);
            total = rounds ? checked_add(*total, *rounds) : std::nullopt;
        }
        if (!total || *total > (std::int64_t(1) << 60)) applies_ = false;
    }
}

std::int64_t DrainBound::cost(int k, std::int64_t blocks) const {
    return ((blocks + per_gpu_[k] - 1) / per_gpu_[k] + 1) * p_.duration[k];
}

bool DrainBound::prunable(const State& s, const std::vector<std::int64_t>& best, const std::vector<char>& found) const {
    if (!applies_) return false;
    // E0: every block running in `s` has ended by then.
    std::int64_t drained = std::max<std::int64_t>(s.now, 0);
    for (const auto& blocks : s.sm)
        if (!blocks.empty()) drained = std::max(drained, blocks.back().end);
    for (int i = 0; i < p_.n; ++i) {
        const Phase ph = s.ops[i].phase;
        if (ph == Phase::determined || ph == Phase::completed) continue;
        if (ph != Phase::queued || !found[i]) return false;  // not in the queue yet: a later joiner could be ahead
    }
    const Queue& q = s.queues[p_.queue.empty() ? 0 : p_.queue[0]];
    std::int64_t ahead = drained;
    if (q.head >= 0) {
        const int h = q.head;
        ahead += cost(h, p_.blocks[h] - s.ops[h].aux);
        if (ahead - s.ops[h].issue > best[h]) return false;
    }
    // A kernel of group g can be preceded by the head and by every member of groups 0..g.
    for (const Group& g : q.groups) {
        for (int k : g) ahead += cost(k, p_.blocks[k] - s.ops[k].aux);
        for (int k : g)
            if (ahead - s.ops[k].issue > best[k]) return false;
    }
    return true;
}

}  // namespace gpuwcrt::exact
