#include "bounds/interference/blocked_work.hpp"

#include <algorithm>
#include <numeric>

namespace gpuwcrt::interference {
namespace {

// The kernels of other streams that can hold SMs while a kernel of the segment waits, per stream:
// one active when it joined (queued ahead or running: G2, G4, one active operation per stream),
// or a higher-priority kernel joining before its last dispatch (A2 puts it ahead).
struct Interferers {
    std::vector<std::vector<int>> by_stream;
    Needs head{};       // the largest need of a kernel that can head the queue during a wait
    Needs same_head{};  // the same over the kernels of the segment's priority
};

Interferers interferers(const std::vector<ChainOp>& ops, int streams, const Segment& seg,
                        InterferenceMutation mutation) {
    const ChainOp& first = ops[seg.kernels.front()];
    const ChainOp& last = ops[seg.kernels.back()];
    Interferers in{std::vector<std::vector<int>>(streams), {}, {}};
    for (const int k : seg.kernels)
        for (int r = 0; r < resource_kinds; ++r) in.same_head[r] = std::max(in.same_head[r], ops[k].need[r]);
    for (std::size_t k = 0; k < ops.size(); ++k) {
        const ChainOp& y = ops[k];
        const bool higher = y.high && !last.high;
        const std::int64_t joined_by = higher ? seg.dispatched_by - 1 : last.join_hi;
        if (!y.kernel || y.stream == last.stream || y.join_lo > joined_by || y.done_hi <= first.join_lo) continue;
        if (!higher && mutation == InterferenceMutation::no_carry_in) continue;
        if (y.high == last.high)  // a lower-priority kernel never heads while one waits (A2)
            for (int r = 0; r < resource_kinds; ++r) in.same_head[r] = std::max(in.same_head[r], y.need[r]);
        if (higher)
            for (int r = 0; r < resource_kinds; ++r) in.head[r] = std::max(in.head[r], y.need[r]);
        in.by_stream[y.stream].push_back(static_cast<int>(k));
    }
    for (int r = 0; r < resource_kinds; ++r) in.head[r] = std::max(in.head[r], in.same_head[r]);
    return in;
}

// A blocked head leaves more than cap − head of r in use on the SM, and that use is a sum of the
// running blocks' needs, all multiples of their GCD: at least the next multiple, the `room`.
// Resource r binds only if the head needs some of it and the blocks that can run fill a room.
struct Rooms {
    Needs room{};
    std::array<bool, resource_kinds> binds{};
};

Rooms rooms(const std::vector<ChainOp>& ops, const Needs& cap, const Segment& seg, const Interferers& in,
            const Needs& head) {
    Rooms out;
    for (int r = 0; r < resource_kinds; ++r) {
        std::int64_t unit = 0, fill = 0;
        auto add = [&](const ChainOp& y) {
            unit = std::gcd(unit, y.need[r]);
            fill += y.blocks * y.need[r];  // within limits::max_total: each kernel counted once
        };
        for (const int k : seg.kernels) add(ops[k]);
        for (const auto& ks : in.by_stream)
            for (const int k : ks) add(ops[k]);
        out.room[r] = unit > 0 ? ((cap[r] - head[r]) / unit + 1) * unit : cap[r] + 1;
        out.binds[r] = head[r] > 0 && fill >= out.room[r];
    }
    return out;
}

// The integral of the running blocks' weights over the waits (see blocked_work), with the
// rooms `rm`.
Time weighted_work(const std::vector<ChainOp>& ops, const Platform& platform, const Segment& seg, const Interferers& in,
                   const Rooms& rm, InterferenceMutation mutation) {
    // A block's weight: its largest need over a binding resource, as a share of the room, and at
    // most 1. On an SM whose head is blocked the running blocks' weights sum to at least 1 (one
    // block of weight 1 is enough; else no weight was cut). Weights are counted in units of
    // 1/scale, scale the LCM of the binding rooms, so that the sums below stay integers.
    BigInt scale = 1;
    for (int r = 0; r < resource_kinds; ++r)
        if (rm.binds[r]) scale = boost::multiprecision::lcm(scale, BigInt(rm.room[r]));
    std::array<BigInt, resource_kinds> per_need{};
    for (int r = 0; r < resource_kinds; ++r)
        if (rm.binds[r]) per_need[r] = scale / rm.room[r];
    auto weighted = [&](const ChainOp& y, std::int64_t blocks) {  // blocks × time × weight, in units
        BigInt most = 0;
        for (int r = 0; r < resource_kinds; ++r)
            if (rm.binds[r]) most = std::max(most, BigInt(per_need[r] * y.need[r]));
        return BigInt(std::min(most, scale) * y.hi * blocks);
    };
    const bool high = ops[seg.kernels.back()].high;
    const auto waits = static_cast<std::int64_t>(seg.kernels.size());
    BigInt work = 0;
    if (mutation != InterferenceMutation::no_own_blocks)
        for (const int k : seg.kernels) work += weighted(ops[k], ops[k].blocks - 1);
    // Lower-priority kernels only run the blocks they had when a wait began (A2), and those end
    // within the longest such block time L: a wait is at most L plus what the other blocks fill
    // after it, so per wait they count as at most L on every SM.
    BigInt lower_work = 0;
    std::int64_t lower_hi = 0;
    for (const auto& ks : in.by_stream) {
        if (ks.empty()) continue;
        const bool higher = ops[ks.front()].high && !high, lower = high && !ops[ks.front()].high;
        BigInt sum = 0, most = 0;
        for (const int k : ks) {
            const BigInt wk = weighted(ops[k], ops[k].blocks);
            sum += wk;
            most = std::max(most, wk);
            if (lower) lower_hi = std::max(lower_hi, ops[k].hi);
        }
        if (higher) work += mutation == InterferenceMutation::higher_once ? most : sum;  // every one can arrive
        else (lower ? lower_work : work) += std::min(sum, BigInt(most * waits));         // one per wait
    }
    lower_work = std::min(lower_work, BigInt(scale * platform.sms * lower_hi * waits));
    return Time(work + lower_work) / scale;
}

// The time during the waits at which a higher-priority kernel heads the queue: that kernel is
// then waiting itself, so it is at most the sum of their waits.
std::int64_t higher_heading(const std::vector<ChainOp>& ops, const Interferers& in,
                            const std::vector<std::int64_t>& wait, std::int64_t limit) {
    std::int64_t total = 0;
    for (const auto& ks : in.by_stream)
        for (const int k : ks)
            if (ops[k].high) total = std::min(limit, total + wait[k]);
    return total;
}

}  // namespace

Time blocked_work(const std::vector<ChainOp>& ops, const Needs& cap, const Platform& platform, int streams,
                  const Segment& seg, const std::vector<std::int64_t>& wait, std::int64_t limit,
                  InterferenceMutation mutation) {
    const Interferers in = interferers(ops, streams, seg, mutation);
    // Any kernel may head: the rooms of the largest needs over all of them.
    const Time any_head = weighted_work(ops, platform, seg, in, rooms(ops, cap, seg, in, in.head), mutation);
    if (ops[seg.kernels.back()].high) return any_head;
    // Or: the instants at which a kernel of the segment's priority heads, with their rooms, and
    // those at which a higher-priority one does.
    const Time own_heads =
        weighted_work(ops, platform, seg, in, rooms(ops, cap, seg, in, in.same_head), mutation) +
        (mutation == InterferenceMutation::no_higher_heads ? Time(0)
                                                           : Time(higher_heading(ops, in, wait, limit)) * platform.sms);
    return std::min(any_head, own_heads);
}

}  // namespace gpuwcrt::interference
