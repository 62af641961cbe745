#include "bounds/interference/blocked_work.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <span>
#include <type_traits>

#include "bounds/interference/wide_int.hpp"

namespace gpuwcrt::interference {
namespace {

// a + b for two tick counts at most `limit` (at most 2^50, model/integer_time.hpp): no overflow.
std::int64_t add_ticks(std::int64_t a, std::int64_t b, std::int64_t limit) { return std::min(limit, a + b); }

// The kernels of other streams that can hold SMs while a kernel of the segment waits, per stream:
// one active when it joined (queued ahead or running: G2, G4, one active operation per stream),
// or a higher-priority kernel joining before its last dispatch (A2 puts it ahead). One group per
// stream that has any, all of one priority.
struct Group {
    std::span<const int> kernels;
    bool high = false;
    Spread spread;
};

struct Interferers {
    std::vector<Group> by_stream;
    std::vector<int> scanned;  // what the groups of Context::scan_candidates point into
    Needs own_unit{};          // the GCD of the segment's own kernels' needs
    Needs own_fill{};          // the largest use of one of them but its waiting block
    Needs head{};              // the largest need of a kernel that can head the queue during a wait
    Needs same_head{};         // the same over the kernels of the segment's priority
    Needs own_head{};          // the same over the segment's own kernels
};

void raise(Needs& to, const Needs& need) {
    for (int r = 0; r < resource_kinds; ++r) to[r] = std::max(to[r], need[r]);
}

// The segment's own part of the interferers.
Interferers own_part(const Context& c, const Segment& seg) {
    Interferers in;
    for (const int k : seg.kernels) {
        const ChainOp& y = c.ops[k];
        raise(in.own_head, y.need);
        for (int r = 0; r < resource_kinds; ++r) {
            in.own_unit[r] = std::gcd(in.own_unit[r], y.need[r]);
            in.own_fill[r] = std::max(in.own_fill[r], (y.blocks - 1) * y.need[r]);  // within limits::max_total
        }
    }
    in.same_head = in.own_head;
    return in;
}

Interferers interferers(const Context& c, const Segment& seg) {
    const ChainOp& first = c.ops[seg.kernels.front()];
    const ChainOp& last = c.ops[seg.kernels.back()];
    Interferers in = own_part(c, seg);
    std::vector<std::pair<int, std::size_t>> scanned;  // stream and where its group starts in in.scanned
    for (int s = 0; s < c.index.streams(); ++s) {
        const bool higher = c.index.high(s) && !last.high;
        if (s == last.stream || (!higher && c.mutation == InterferenceMutation::no_carry_in)) continue;
        const std::int64_t joined_by = higher ? seg.dispatched_by - 1 : last.join_hi;
        if (c.scan_candidates) {
            scanned.emplace_back(s, in.scanned.size());
            c.index.kernels_scanned(s, first.join_lo, joined_by, in.scanned);
            continue;
        }
        const std::span<const int> ks = c.index.kernels(s, first.join_lo, joined_by);
        if (!ks.empty()) in.by_stream.push_back({ks, c.index.high(s) != 0, c.index.spread(s, ks)});
    }
    for (std::size_t g = 0; g < scanned.size(); ++g) {
        const std::size_t from = scanned[g].second,
                          to = g + 1 < scanned.size() ? scanned[g + 1].second : in.scanned.size();
        const std::span<const int> ks(in.scanned.data() + from, to - from);
        if (!ks.empty()) in.by_stream.push_back({ks, c.index.high(scanned[g].first) != 0, spread_of(c.ops, ks)});
    }
    for (const Group& g : in.by_stream) {
        if (g.high == last.high) raise(in.same_head, g.spread.most);  // a lower one never heads while one waits (A2)
        if (g.high && !last.high) raise(in.head, g.spread.most);
    }
    raise(in.head, in.same_head);
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

Rooms rooms(const Context& c, const Interferers& in, const Needs& head) {
    Rooms out;
    std::int64_t full_sms = 0;
    // A stream runs one kernel at a time (G4: each joins once its predecessor completed), so at
    // any instant the blocks that run are, per other stream, at most those of its largest
    // candidate, and of the segment's stream those of one of its kernels but the waiting block.
    for (int r = 0; r < resource_kinds; ++r) {
        std::int64_t unit = in.own_unit[r], fill = in.own_fill[r];  // within limits::max_total
        for (const Group& g : in.by_stream) {
            unit = std::gcd(unit, g.spread.unit[r]);
            fill += g.spread.fill[r];
        }
        out.room[r] = unit > 0 ? ((c.cap[r] - head[r]) / unit + 1) * unit : c.cap[r] + 1;
        out.binds[r] = head[r] > 0 && fill >= out.room[r];
        if (out.binds[r]) full_sms += fill / out.room[r];
    }
    if (full_sms < c.platform.sms) out.binds = {};
    return out;
}

// The three ways to add up weights: in 128 bits unchecked where a bound on every sum shows that
// it fits (Context::unchecked_scale), in 128 bits checked, and with arbitrary precision.
struct Unchecked128 {
    using Int = Wide;
    static Int add(Int a, Int b) { return a + b; }
    static Int mul(Int a, Int b) { return a * b; }
};
struct Checked128 {
    using Int = Wide;
    static Int add(Int a, Int b) { return wide_add(a, b); }
    static Int mul(Int a, Int b) { return wide_mul(a, b); }
};
struct Exact {
    using Int = BigInt;
    static Int add(const Int& a, const Int& b) { return Int(a + b); }
    static Int mul(const Int& a, const Int& b) { return Int(a * b); }
};

template <class Int>
Int gcd_of(Int a, Int b) {
    while (b != 0) {
        Int t = Int(a % b);
        a = b;
        b = t;
    }
    return a;
}

// The sum of the k largest values (reordered in place): one stream's kernels that can meet k
// waits, one per wait, are k distinct kernels (a kernel active at two joins counts once).
template <class A>
typename A::Int largest_sum(std::vector<typename A::Int>& values, std::int64_t k) {
    const auto n = std::min<std::size_t>(values.size(), static_cast<std::size_t>(std::max<std::int64_t>(0, k)));
    if (n > 0 && n < values.size())
        std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n - 1), values.end(),
                         std::greater<>());
    typename A::Int sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum = A::add(sum, values[i]);
    return sum;
}

// The same for tick counts, each at most `limit`: saturated there.
std::int64_t largest_ticks(std::vector<std::int64_t>& values, std::int64_t k, std::int64_t limit) {
    const auto n = std::min<std::size_t>(values.size(), static_cast<std::size_t>(std::max<std::int64_t>(0, k)));
    if (n > 0 && n < values.size())
        std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n - 1), values.end(),
                         std::greater<>());
    std::int64_t sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum = add_ticks(sum, values[i], limit);
    return sum;
}

// The same over a group's values value(k) (all of them when k is at least their number), with
// `each` as scratch space.
template <class Value>
std::int64_t group_ticks(std::span<const int> kernels, std::int64_t k, std::vector<std::int64_t>& each,
                         const Value& value, std::int64_t limit) {
    std::int64_t sum = 0;
    if (k >= static_cast<std::int64_t>(kernels.size())) {
        for (const int y : kernels) sum = add_ticks(sum, value(y), limit);
    } else if (k == 1) {
        for (const int y : kernels) sum = std::max(sum, value(y));
        sum = std::min(sum, limit);
    } else {
        each.clear();
        for (const int y : kernels) each.push_back(value(y));
        sum = largest_ticks(each, k, limit);
    }
    return sum;
}

// Which other kernels count only the blocks that fit on the SMs together: at the instants the
// integral covers, they have dispatched every block (their "tails").
enum class Tails {
    none,
    higher,  // the instants at which no higher-priority kernel is queued
};

// ⌈units / (scale · sms)⌉, at most `limit`.
template <class A, class Int = typename A::Int>
std::int64_t ticks_of(const Int& units, const Int& scale, std::int64_t sms, std::int64_t limit) {
    const Int den = A::mul(scale, Int(sms));
    const Int q = Int(units / den), up = units % den != 0 ? Int(q + 1) : q;
    return up >= Int(limit) ? limit : static_cast<std::int64_t>(up);
}

// The LCM of the binding rooms: the weights' unit is its inverse.
template <class A, class Int = typename A::Int>
Int binding_scale(const Rooms& rm) {
    Int scale = 1;
    for (int r = 0; r < resource_kinds; ++r)
        if (rm.binds[r]) scale = A::mul(Int(scale / gcd_of<Int>(scale, Int(rm.room[r]))), Int(rm.room[r]));
    return scale;
}

// The sum of the k largest of a group's values value(k) (all of them when k is at least their
// number), with `each` as scratch space.
template <class A, class Value, class Int = typename A::Int>
Int group_sum(std::span<const int> kernels, std::int64_t k, std::vector<Int>& each, const Value& value) {
    Int sum = 0;
    if (k >= static_cast<std::int64_t>(kernels.size())) {
        for (const int y : kernels) sum = A::add(sum, value(y));
    } else if (k == 1) {
        for (const int y : kernels) sum = std::max(sum, value(y));
    } else {
        each.clear();
        for (const int y : kernels) each.push_back(value(y));
        sum = largest_sum<A>(each, k);
    }
    return sum;
}

// The integral of the running blocks' weights over the waits (see blocked_ticks), with the
// rooms `rm`, divided by the SM count: in ticks, rounded up, at most the limit.
template <class A, class Int = typename A::Int>
std::int64_t weighted_ticks_as(const Context& c, const Segment& seg, const Interferers& in, const Rooms& rm,
                               Tails tails) {
    const std::vector<ChainOp>& ops = c.ops;
    const InterferenceMutation mutation = c.mutation;
    // A block's weight: its largest need over a binding resource, as a share of the room, and at
    // most 1. On an SM whose head is blocked the running blocks' weights sum to at least 1 (one
    // block of weight 1 is enough; else no weight was cut). Weights are counted in units of
    // 1/scale, scale the LCM of the binding rooms, so that the sums below stay integers.
    const Int scale = binding_scale<A>(rm);
    std::array<Int, resource_kinds> per_need{};
    std::array<int, resource_kinds> binding{};
    int bindings = 0;
    for (int r = 0; r < resource_kinds; ++r)
        if (rm.binds[r]) per_need[bindings] = Int(scale / rm.room[r]), binding[bindings++] = r;
    auto weighted = [&](const ChainOp& y, std::int64_t blocks) {  // blocks × time × weight, in units
        if constexpr (std::is_same_v<A, Unchecked128>) {
            // Below Context::unchecked_scale the weight and block time × blocks fit 63 bits.
            std::int64_t most = 0;
            for (int b = 0; b < bindings; ++b)
                most = std::max(most, static_cast<std::int64_t>(per_need[b]) * y.need[binding[b]]);
            return Int(std::min(most, static_cast<std::int64_t>(scale))) * (y.hi * blocks);
        } else {
            Int most = 0;
            for (int b = 0; b < bindings; ++b) most = std::max(most, A::mul(per_need[b], Int(y.need[binding[b]])));
            return A::mul(A::mul(std::min(most, scale), Int(y.hi)), Int(blocks));
        }
    };
    const bool high = ops[seg.kernels.back()].high;
    const auto waits = static_cast<std::int64_t>(seg.kernels.size());
    Int work = 0;
    if (mutation != InterferenceMutation::no_own_blocks)
        for (const int k : seg.kernels) work = A::add(work, weighted(ops[k], ops[k].blocks - 1));
    // Lower-priority kernels only run the blocks they had when a wait began (A2), and those end
    // within the longest such block time L: a wait is at most L plus what the other blocks fill
    // after it, so per wait they count as at most L on every SM.
    Int lower_work = 0;
    std::int64_t lower_hi = 0;
    std::vector<Int> each;
    for (const Group& g : in.by_stream) {
        const bool higher = g.high && !high, lower = high && !g.high;
        const bool tail = tails == Tails::higher && higher;
        const auto value = [&](int k) {
            const std::int64_t blocks = !tail ? ops[k].blocks
                                        : mutation == InterferenceMutation::no_higher_tails
                                            ? 0
                                            : std::min(ops[k].blocks, ops[k].at_once);
            return weighted(ops[k], blocks);
        };
        // Higher ones: each can arrive; the others one per wait.
        const auto n = static_cast<std::int64_t>(g.kernels.size());
        const std::int64_t k = !higher ? waits : mutation == InterferenceMutation::higher_once ? 1 : n;
        const Int sum = group_sum<A>(g.kernels, k, each, value);
        if (lower) {
            lower_hi = std::max(lower_hi, g.spread.longest);
            lower_work = A::add(lower_work, sum);
        } else {
            work = A::add(work, sum);
        }
    }
    lower_work = std::min(lower_work, A::mul(A::mul(scale, Int(c.platform.sms)), Int(lower_hi * waits)));
    return ticks_of<A>(A::add(work, lower_work), scale, c.platform.sms, c.limit);
}

std::int64_t weighted_ticks(const Context& c, const Segment& seg, const Interferers& in, const Rooms& rm, Tails tails) {
    if (!c.exact_arithmetic) {
        try {
            if (binding_scale<Checked128>(rm) <= c.unchecked_scale)
                return weighted_ticks_as<Unchecked128>(c, seg, in, rm, tails);
            return weighted_ticks_as<Checked128>(c, seg, in, rm, tails);
        } catch (const WideOverflow&) {
            // capacities far beyond a GPU's: the same sums with arbitrary precision
        }
    }
    return weighted_ticks_as<Exact>(c, seg, in, rm, tails);
}

// The time during the waits at which a higher-priority kernel heads the queue: that kernel is
// then waiting itself, so it is at most the sum of their waits.
std::int64_t higher_heading(const Context& c, const Interferers& in, const std::vector<std::int64_t>& wait) {
    std::int64_t total = 0;
    for (const Group& g : in.by_stream)
        if (g.high)
            for (const int k : g.kernels) total = add_ticks(total, wait[k], c.limit);
    return total;
}

// The instants of the waits at which a kernel of the segment's priority heads while a
// higher-priority kernel's last blocks run (the heading times `solo` leave them out): a
// higher-priority kernel only has such blocks from its last dispatch on, and they end within its
// block time.
std::int64_t higher_tails(const Context& c, const Interferers& in) {
    std::int64_t total = 0;
    for (const Group& g : in.by_stream)
        if (g.high)
            for (const int k : g.kernels) total = add_ticks(total, c.ops[k].hi, c.limit);
    return total;
}

// The time during the waits at which the segment's own kernels head the queue, each at most its
// `part` of its wait.
std::int64_t own_heading(const Context& c, const Segment& seg, const std::vector<std::int64_t>& part,
                         const Heading& heading) {
    std::int64_t total = 0;
    for (const int k : seg.kernels) total = add_ticks(total, std::min(part[k], heading.wait[k]), c.limit);
    return total;
}

// The time during the waits at which another stream's kernel heads the queue: each such
// instant is one at which that kernel heads during its own wait, at most its `same` part for a
// kernel of the segment's priority (per stream one kernel per wait) and its `higher` part for a
// higher-priority one; lower priorities never head.
std::int64_t others_heading(const Context& c, const Segment& seg, const Interferers& in,
                            const std::vector<std::int64_t>& same, const std::vector<std::int64_t>& higher,
                            const Heading& heading) {
    const bool high = c.ops[seg.kernels.back()].high;
    const auto waits = static_cast<std::int64_t>(seg.kernels.size());
    std::int64_t total = 0;
    std::vector<std::int64_t> each;
    for (const Group& g : in.by_stream) {
        if (high && !g.high) continue;
        const bool is_higher = g.high && !high;
        const std::vector<std::int64_t>& part = is_higher ? higher : same;
        const std::int64_t n = is_higher ? static_cast<std::int64_t>(g.kernels.size()) : waits;
        const auto value = [&](int k) { return std::min(part[k], heading.wait[k]); };
        total = add_ticks(total, group_ticks(g.kernels, n, each, value, c.limit), c.limit);
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
std::int64_t foreign_blocks(const Context& c, const Segment& seg, const Interferers& in) {
    const bool high = c.ops[seg.kernels.back()].high;
    const auto waits = static_cast<std::int64_t>(seg.kernels.size());
    std::int64_t total = high ? 0 : higher_tails(c, in), lower = 0;
    std::vector<std::int64_t> each;
    for (const Group& g : in.by_stream) {
        if (g.high && !high) continue;
        if (high && !g.high) {
            lower = std::max(lower, std::min(c.limit, g.spread.longest));
            continue;
        }
        const auto value = [&](int k) { return c.ops[k].hi; };
        total = add_ticks(total, group_ticks(g.kernels, waits, each, value, c.limit), c.limit);
    }
    return add_ticks(total, std::min(c.limit, lower * waits), c.limit);  // lower <= 2^50, waits <= 2^12
}

}  // namespace

Wide unchecked_scale(const std::vector<ChainOp>& ops, const Platform& platform) {
    constexpr std::int64_t fits63 = std::int64_t(1) << 62;
    try {
        Wide reach = 1, work = 0, longest = 0, kernels = 0;
        std::int64_t need = 1;
        for (const ChainOp& k : ops) {
            if (!k.kernel) continue;
            for (const std::int64_t n : k.need) need = std::max(need, n);
            const Wide time = wide_mul(k.hi, k.blocks);
            if (time >= fits63) return 0;  // block time × blocks in 63 bits
            work = wide_add(work, time);
            longest = std::max(longest, Wide(k.hi));
            ++kernels;
        }
        reach = std::max({Wide(need), work, wide_mul(wide_mul(platform.sms, longest), kernels)});
        // The weight of a block, at most the scale times its need, in 63 bits too.
        return std::min((Wide(1) << 126) / reach, Wide(fits63 / need));
    } catch (const WideOverflow&) {
        return 0;
    }
}

std::int64_t alone_ticks(const Context& c, int kernel) {
    const Segment seg{{kernel}, 0};
    const Interferers none = own_part(c, seg);
    return weighted_ticks(c, seg, none, rooms(c, none, none.own_head), Tails::none);
}

std::int64_t solo_ticks(const Context& c, const Segment& seg, std::int64_t alone) {
    // From the instant t0 at which the kernel becomes the head of its queue to its last dispatch,
    // no kernel of its priority or below dispatches a block (X1, FIFO, A2), so the blocks that
    // run at the instants it heads are its own, blocks running at t0 (they end by t0 + L, L the
    // longest block time that can run meanwhile), and higher-priority kernels' last blocks: each
    // such kernel heads until its last dispatch, so at the instants ours heads it only runs the
    // blocks that fit together (Tails::higher). After t0 + L the integral covers only those,
    // weighted by the kernel's own rooms.
    Interferers in = interferers(c, seg);
    const bool high = c.ops[seg.kernels.back()].high;
    std::int64_t carry = 0;
    for (const Group& g : in.by_stream) carry = std::max(carry, g.spread.longest);
    std::erase_if(in.by_stream, [&](const Group& g) { return !g.high || high; });
    if (c.mutation == InterferenceMutation::no_heading_carry) carry = 0;
    const std::int64_t work = weighted_ticks(c, seg, in, rooms(c, in, in.own_head), Tails::higher);
    // Or, at the instants at which no higher-priority kernel's blocks run either (the others are
    // counted once per wait by blocked_ticks): after t0 + L only the kernel's own blocks run, and
    // its rooms weigh them 1/(its blocks per SM).
    return add_ticks(std::min(work, alone), carry, c.limit);
}

std::int64_t blocked_ticks(const Context& c, const Segment& seg, const Heading& heading) {
    const Interferers in = interferers(c, seg);
    // Any kernel may head: the rooms of the largest needs over all of them.
    std::int64_t best = weighted_ticks(c, seg, in, rooms(c, in, in.head), Tails::none);
    // Or split by which kernel heads: each heads only during its own wait, at most its heading
    // time `solo`; the segment's own kernels, and per stream of its priority one per wait.
    std::int64_t heads = own_heading(c, seg, heading.solo, heading);
    if (c.mutation != InterferenceMutation::no_solo_others)
        heads = add_ticks(heads, others_heading(c, seg, in, heading.solo, heading.solo, heading), c.limit);
    if (!c.ops[seg.kernels.back()].high && c.mutation != InterferenceMutation::no_higher_tails)
        heads = add_ticks(heads, higher_tails(c, in), c.limit);
    best = std::min(best, heads);
    // Or the same split with the other kernels' blocks counted by time (foreign_blocks): at the
    // other instants at which a kernel of the segment's priority heads, only its own blocks run
    // (`alone`); a higher-priority head counts its whole heading time (`solo`).
    heads = add_ticks(own_heading(c, seg, heading.alone, heading),
                      others_heading(c, seg, in, heading.alone, heading.solo, heading), c.limit);
    if (c.mutation != InterferenceMutation::no_foreign_blocks)
        heads = add_ticks(heads, foreign_blocks(c, seg, in), c.limit);
    best = std::min(best, heads);
    if (c.ops[seg.kernels.back()].high) return best;
    // Or: the instants at which a kernel of the segment's priority heads, with their rooms, and
    // those at which a higher-priority one does.
    std::int64_t split = weighted_ticks(c, seg, in, rooms(c, in, in.same_head), Tails::higher);
    if (c.mutation != InterferenceMutation::no_higher_heads)
        split = add_ticks(split, higher_heading(c, in, heading.wait), c.limit);
    return std::min(best, split);
}

}  // namespace gpuwcrt::interference
