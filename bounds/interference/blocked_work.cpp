#include "bounds/interference/blocked_work.hpp"

#include <algorithm>
#include <functional>
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
    Needs own_head{};   // the same over the segment's own kernels
};

Interferers interferers(const std::vector<ChainOp>& ops, int streams, const Segment& seg,
                        InterferenceMutation mutation) {
    const ChainOp& first = ops[seg.kernels.front()];
    const ChainOp& last = ops[seg.kernels.back()];
    Interferers in{std::vector<std::vector<int>>(streams), {}, {}, {}};
    for (const int k : seg.kernels)
        for (int r = 0; r < resource_kinds; ++r) in.own_head[r] = std::max(in.own_head[r], ops[k].need[r]);
    in.same_head = in.own_head;
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
// The head waits only while every SM is full in some resource, and an SM full in r holds a room
// of r that no other SM holds: with fewer full SMs possible than there are SMs, none binds.
struct Rooms {
    Needs room{};
    std::array<bool, resource_kinds> binds{};
};

Rooms rooms(const std::vector<ChainOp>& ops, const Needs& cap, const Segment& seg, const Interferers& in,
            const Needs& head, std::int64_t sms) {
    Rooms out;
    std::int64_t full_sms = 0;
    // A stream runs one kernel at a time (G4: each joins once its predecessor completed), so at
    // any instant the blocks that run are, per other stream, at most those of its largest
    // candidate, and of the segment's stream those of one of its kernels but the waiting block.
    for (int r = 0; r < resource_kinds; ++r) {
        std::int64_t unit = 0, fill = 0, largest = 0;  // within limits::max_total: each kernel counted once
        for (const int k : seg.kernels) {
            unit = std::gcd(unit, ops[k].need[r]);
            largest = std::max(largest, (ops[k].blocks - 1) * ops[k].need[r]);
        }
        fill += largest;
        for (const auto& ks : in.by_stream) {
            largest = 0;
            for (const int k : ks) {
                unit = std::gcd(unit, ops[k].need[r]);
                largest = std::max(largest, ops[k].blocks * ops[k].need[r]);
            }
            fill += largest;
        }
        out.room[r] = unit > 0 ? ((cap[r] - head[r]) / unit + 1) * unit : cap[r] + 1;
        out.binds[r] = head[r] > 0 && fill >= out.room[r];
        if (out.binds[r]) full_sms += fill / out.room[r];
    }
    if (full_sms < sms) out.binds = {};
    return out;
}

// The sum of the k largest values: one stream's kernels that can meet k waits, one per wait, are
// k distinct kernels (a kernel active at two joins counts once).
template <class T>
T largest_sum(std::vector<T> values, std::int64_t k) {
    const auto n = std::min<std::size_t>(values.size(), static_cast<std::size_t>(std::max<std::int64_t>(0, k)));
    std::partial_sort(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n), values.end(), std::greater<>());
    T sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += values[i];
    return sum;
}

// Which other kernels count only the blocks that fit on the SMs together: at the instants the
// integral covers, they have dispatched every block (their "tails").
enum class Tails {
    none,
    higher,  // the instants at which no higher-priority kernel is queued
};

// The integral of the running blocks' weights over the waits (see blocked_work), with the
// rooms `rm`.
Time weighted_work(const std::vector<ChainOp>& ops, const Platform& platform, const Segment& seg, const Interferers& in,
                   const Rooms& rm, Tails tails, InterferenceMutation mutation) {
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
        std::vector<BigInt> each;
        for (const int k : ks) {
            const bool tail = tails == Tails::higher && higher;
            const std::int64_t blocks = !tail ? ops[k].blocks
                                        : tails == Tails::higher && mutation == InterferenceMutation::no_higher_tails
                                            ? 0
                                            : std::min(ops[k].blocks, ops[k].at_once);
            each.push_back(weighted(ops[k], blocks));
            if (lower) lower_hi = std::max(lower_hi, ops[k].hi);
        }
        const auto n = static_cast<std::int64_t>(each.size());
        if (higher)
            work += largest_sum(each, mutation == InterferenceMutation::higher_once ? 1 : n);  // each can arrive
        else (lower ? lower_work : work) += largest_sum(each, waits);                          // one per wait
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

// The instants of the waits at which a kernel of the segment's priority heads while a
// higher-priority kernel's last blocks run (the heading times `solo` leave them out): a
// higher-priority kernel only has such blocks from its last dispatch on, and they end within its
// block time.
std::int64_t higher_tails(const std::vector<ChainOp>& ops, const Interferers& in) {
    std::int64_t total = 0;  // at most 2^12 block times, each within the horizon: no overflow
    for (const auto& ks : in.by_stream)
        for (const int k : ks)
            if (ops[k].high) total += ops[k].hi;
    return total;
}

// The time during the waits at which the segment's own kernels head the queue, each at most its
// `part` of its wait.
std::int64_t own_heading(const Segment& seg, const std::vector<std::int64_t>& part, const Heading& heading,
                         std::int64_t limit) {
    std::int64_t total = 0;
    for (const int k : seg.kernels) total = std::min(limit, total + std::min(part[k], heading.wait[k]));
    return total;
}

// The time during the waits at which another stream's kernel heads the queue: each such
// instant is one at which that kernel heads during its own wait, at most its `same` part for a
// kernel of the segment's priority (per stream one kernel per wait) and its `higher` part for a
// higher-priority one; lower priorities never head.
std::int64_t others_heading(const std::vector<ChainOp>& ops, const Segment& seg, const Interferers& in,
                            const std::vector<std::int64_t>& same, const std::vector<std::int64_t>& higher,
                            const Heading& heading, std::int64_t limit) {
    const bool high = ops[seg.kernels.back()].high;
    const auto waits = static_cast<std::int64_t>(seg.kernels.size());
    std::int64_t total = 0;
    for (const auto& ks : in.by_stream) {
        if (ks.empty() || (high && !ops[ks.front()].high)) continue;
        const bool is_higher = ops[ks.front()].high && !high;
        std::vector<std::int64_t> each;  // each at most the horizon, at most 2^12 of them: no overflow
        for (const int k : ks) each.push_back(std::min((is_higher ? higher : same)[k], heading.wait[k]));
        total = std::min(limit, total + largest_sum(each, is_higher ? static_cast<std::int64_t>(each.size()) : waits));
    }
    return total;
}

// The instants of the waits at which a kernel of the segment's priority heads while a block of
// another kernel runs. A kernel of that priority or above has then dispatched all its blocks (it
// was ahead in the queue, or heads its higher queue until its last dispatch), so the instant is
// within its block time after its last dispatch: per stream of the segment's priority the w
// largest block times (one kernel per wait), and every higher-priority candidate's. A lower
// kernel dispatches nothing while the segment's kernel is queued (A2): its blocks ran at the join
// and end within L, once per wait.
std::int64_t foreign_blocks(const std::vector<ChainOp>& ops, const Segment& seg, const Interferers& in) {
    const bool high = ops[seg.kernels.back()].high;
    const auto waits = static_cast<std::int64_t>(seg.kernels.size());
    std::int64_t total = high ? 0 : higher_tails(ops, in), lower = 0;  // no overflow, as in higher_tails
    for (const auto& ks : in.by_stream) {
        if (ks.empty() || (ops[ks.front()].high && !high)) continue;
        std::vector<std::int64_t> each;
        for (const int k : ks) each.push_back(ops[k].hi);
        if (high && !ops[ks.front()].high) lower = std::max(lower, largest_sum(each, 1));
        else total += largest_sum(each, waits);
    }
    return total + lower * waits;
}

}  // namespace

Time alone_work(const std::vector<ChainOp>& ops, const Needs& cap, const Platform& platform, int kernel,
                InterferenceMutation mutation) {
    const Segment seg{{kernel}, 0};
    const Interferers none{{}, {}, {}, ops[kernel].need};
    return weighted_work(ops, platform, seg, none, rooms(ops, cap, seg, none, none.own_head, platform.sms), Tails::none,
                         mutation);
}

Time solo_work(const std::vector<ChainOp>& ops, const Needs& cap, const Platform& platform, int streams,
               const Segment& seg, InterferenceMutation mutation) {
    // From the instant t0 at which the kernel becomes the head of its queue to its last dispatch,
    // no kernel of its priority or below dispatches a block (X1, FIFO, A2), so the blocks that
    // run at the instants it heads are its own, blocks running at t0 (they end by t0 + L, L the
    // longest block time that can run meanwhile), and higher-priority kernels' last blocks: each
    // such kernel heads until its last dispatch, so at the instants ours heads it only runs the
    // blocks that fit together (Tails::higher). After t0 + L the integral covers only those,
    // weighted by the kernel's own rooms.
    Interferers in = interferers(ops, streams, seg, mutation);
    const bool high = ops[seg.kernels.back()].high;
    std::int64_t carry = 0;
    for (auto& ks : in.by_stream) {
        for (const int k : ks) carry = std::max(carry, ops[k].hi);
        std::erase_if(ks, [&](int k) { return !ops[k].high || high; });
    }
    if (mutation == InterferenceMutation::no_heading_carry) carry = 0;
    const Time work = weighted_work(ops, platform, seg, in, rooms(ops, cap, seg, in, in.own_head, platform.sms),
                                    Tails::higher, mutation);
    // Or, at the instants at which no higher-priority kernel's blocks run either (the others are
    // counted once per wait by blocked_work): after t0 + L only the kernel's own blocks run, and
    // its rooms weigh them 1/(its blocks per SM).
    const Time own = alone_work(ops, cap, platform, seg.kernels.front(), mutation);
    return std::min(work, own) + Time(carry) * platform.sms;
}

Time blocked_work(const std::vector<ChainOp>& ops, const Needs& cap, const Platform& platform, int streams,
                  const Segment& seg, const Heading& heading, std::int64_t limit, InterferenceMutation mutation) {
    const Interferers in = interferers(ops, streams, seg, mutation);
    // Any kernel may head: the rooms of the largest needs over all of them.
    Time best =
        weighted_work(ops, platform, seg, in, rooms(ops, cap, seg, in, in.head, platform.sms), Tails::none, mutation);
    // Or split by which kernel heads: each heads only during its own wait, at most its heading
    // time `solo`; the segment's own kernels, and per stream of its priority one per wait.
    std::int64_t heads = own_heading(seg, heading.solo, heading, limit);
    if (mutation != InterferenceMutation::no_solo_others)
        heads += others_heading(ops, seg, in, heading.solo, heading.solo, heading, limit);
    if (!ops[seg.kernels.back()].high && mutation != InterferenceMutation::no_higher_tails)
        heads += higher_tails(ops, in);
    best = std::min(best, Time(std::min(limit, heads)) * platform.sms);
    // Or the same split with the other kernels' blocks counted by time (foreign_blocks): at the
    // other instants at which a kernel of the segment's priority heads, only its own blocks run
    // (`alone`); a higher-priority head counts its whole heading time (`solo`).
    heads = own_heading(seg, heading.alone, heading, limit) +
            others_heading(ops, seg, in, heading.alone, heading.solo, heading, limit);
    if (mutation != InterferenceMutation::no_foreign_blocks) heads += foreign_blocks(ops, seg, in);
    best = std::min(best, Time(std::min(limit, heads)) * platform.sms);
    if (ops[seg.kernels.back()].high) return best;
    // Or: the instants at which a kernel of the segment's priority heads, with their rooms, and
    // those at which a higher-priority one does.
    const Time split = weighted_work(ops, platform, seg, in, rooms(ops, cap, seg, in, in.same_head, platform.sms),
                                     Tails::higher, mutation) +
                       (mutation == InterferenceMutation::no_higher_heads
                            ? Time(0)
                            : Time(higher_heading(ops, in, heading.wait, limit)) * platform.sms);
    return std::min(best, split);
}

}  // namespace gpuwcrt::interference
