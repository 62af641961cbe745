#include "bounds/frames/busy_window.hpp"

#include <array>
#include <numeric>

#include "model/frames/arrival.hpp"

namespace gpuwcrt {
namespace {

using Resources = std::array<std::int64_t, 4>;  // threads, shared memory, registers, resident-block slot

Resources needs_of(const Operation& op) {
    const BlockDemand d = op.demand();
    return {d.threads, d.shared_mem, d.registers, 1};
}

// Per resource r, the least use that leaves some kernel's next block without room on an SM:
// more than cap_r − need_r(K) for the head K, and a sum of blocks' needs, all multiples of
// their GCD q_r (docs/theory/interference.md, "The occupancy integral", with every kernel a possible
// head). Zero where no kernel needs r: that resource never blocks a head.
Resources rooms(const Workload& w) {
    const Platform& p = w.platform;
    const Resources cap{p.threads_per_sm, p.shared_mem_per_sm, p.registers_per_sm, p.blocks_per_sm_max};
    Resources head{}, gcd{};
    for (const Operation& op : w.ops) {
        if (!op.is_kernel()) continue;
        const Resources need = needs_of(op);
        for (std::size_t r = 0; r < need.size(); ++r) {
            head[r] = std::max(head[r], need[r]);
            gcd[r] = std::gcd(gcd[r], need[r]);
        }
    }
    Resources room{};
    for (std::size_t r = 0; r < room.size(); ++r)
        if (head[r] > 0) room[r] = ((cap[r] - head[r]) / gcd[r] + 1) * gcd[r];
    return room;
}

// A block's share of an SM at the instants the SMs are full: on every SM the running blocks'
// shares then sum to at least 1.
Time block_weight(const Operation& op, const Resources& room) {
    const Resources need = needs_of(op);
    Time weight = 0;
    for (std::size_t r = 0; r < need.size(); ++r)
        if (room[r] > 0) weight = std::max(weight, Time(need[r], room[r]));
    return std::min(weight, Time(1));
}

constexpr int max_rounds = 100'000;

// The first operation with a `wait` that pairs frames by their index (streams of one period):
// a busy period does not see which of its frames are paired. A wait across rates pairs by
// issue order, which a busy period keeps (docs/theory/all-time.md, "A long hyperperiod").
const Operation* wait_by_frame_index(const Workload& w) {
    for (const Operation& op : w.ops)
        for (const int t : op.wait)
            if (!waits_across_rates(w.streams[op.stream].arrival, w.streams[w.ops[t].stream].arrival)) return &op;
    return nullptr;
}

// With `alone`, the stream is the only one on its SMs (alone in its time-sliced context): its
// operations run one after another, and a kernel's blocks, all of one size, `at_once` at a time
// on the empty SMs, each dispatched at most a block time after the one `at_once` before it.
Time frame_cost(const Workload& w, int stream, const Resources& room, bool alone = false) {
    Time gap = 0, delays = 0, work = 0;
    for (const int i : w.stream_ops(stream)) {
        const Operation& op = w.ops[i];
        // Instants at which nothing has joined and this frame waits for its own next issue.
        if (op.issue.kind == IssueSpec::Kind::at) gap = std::max(gap, op.issue.at.hi);
        if (op.issue.kind == IssueSpec::Kind::after_stream_idle) delays += op.issue.delay;
        // A copy runs whenever one waits (C2, C3); a kernel whose blocks are all dispatched ends
        // within a block time; the SMs are full otherwise, and its blocks hold their share.
        if (alone && op.is_kernel()) {
            const std::int64_t at_once =
                std::max<std::int64_t>(1, SmUsage{}.room_for(op.demand(), w.platform)) * w.platform.sms;
            work += op.time.hi * ((op.blocks + at_once - 1) / at_once);
            continue;
        }
        work += op.time.hi;
        if (op.is_kernel()) work += block_weight(op, room) * op.blocks * op.time.hi / w.platform.sms;
    }
    return gap + delays + work;
}

}  // namespace

std::int64_t frames_by(const Arrival& a, const Time& t) {
    if (!a.repeats()) return 1;
    const Time q = (t + a.jitter) / a.period;
    return static_cast<std::int64_t>(boost::multiprecision::numerator(q) / boost::multiprecision::denominator(q)) + 1;
}

Time busy_cost(const Workload& w, int stream) { return frame_cost(w, stream, rooms(w)); }

Time alone_cost(const Workload& w, int stream) { return frame_cost(w, stream, rooms(w), true); }

std::optional<BusyWindow> busy_window(const Workload& w, const Time& limit, std::string& why) {
    std::vector<Time> cost(w.streams.size());
    const Resources room = rooms(w);
    Time per_unit = 0;
    for (std::size_t s = 0; s < w.streams.size(); ++s) {
        cost[s] = frame_cost(w, static_cast<int>(s), room);
        if (w.streams[s].arrival.repeats()) per_unit += cost[s] / w.streams[s].arrival.period;
    }
    if (per_unit >= 1)
        return why = "the frames' costs in a busy period add up to " + human_string(per_unit) +
                     " per unit of time (at least 1): no busy period is proven to end",
               std::nullopt;
    // From below to the least fixed point: every iterate is at most it, and the sum only grows,
    // each time by at least the least cost.
    BusyWindow b{0, std::vector<std::int64_t>(w.streams.size())};
    for (int round = 0;; ++round) {
        Time next = 0;
        for (std::size_t s = 0; s < w.streams.size(); ++s) next += cost[s] * frames_by(w.streams[s].arrival, b.length);
        if (next == b.length) break;
        if (next > limit || round == max_rounds)
            return why = "the busy window passes " + human_string(std::min(next, limit)) +
                         ": no busy period is proven to end",
                   std::nullopt;
        b.length = next;
    }
    for (std::size_t s = 0; s < w.streams.size(); ++s) b.frames[s] = frames_by(w.streams[s].arrival, b.length);
    return b;
}

Unrolled busy_window_frames(const Workload& w, const BusyWindow& b, BusyWindowMutation mutation) {
    Workload frames = w;
    for (Stream& s : frames.streams)
        if (!s.arrival.repeats()) s.arrival = {Arrival::Kind::sporadic, b.length + 1, 0, 0};
    // With jitter of a period or more, a frame may be released before its predecessor and
    // counts from when the host reaches it (docs/theory/all-time.md, fact 5); its own release may
    // then lie before the busy period, and an `issue = [a, b]` in it anywhere from the busy
    // period's start: the lower end a is dropped (the host order still issues it in turn).
    for (Operation& op : frames.ops) {
        const Arrival& a = frames.streams[op.stream].arrival;
        if (a.repeats() && a.jitter >= a.period && op.issue.kind == IssueSpec::Kind::at) op.issue.at.lo = 0;
    }
    const bool nominal = mutation == BusyWindowMutation::releases_from_nominal;
    const auto release = [&frames, &b, nominal](int stream, std::int64_t k) {
        const Arrival& a = frames.streams[stream].arrival;
        const Time lo = a.period * k - (nominal ? Time(0) : a.jitter);
        return TimeRange{lo > 0 ? lo : Time(0), b.length};
    };
    return unroll_windows(frames, b.frames, release, {w.source, 0, 0});
}

std::optional<BusyWindowBounds> busy_window_bounds(const Workload& w, const Budget& budget, std::string& why,
                                                   const BusyWindowOptions& o) {
    if (const Operation* op = wait_by_frame_index(w))
        return why = "a busy window pairs no frames by their index, as the `wait` of '" + op->name + "' does",
               std::nullopt;
    if (w.null_stream() >= 0) return why = "the interference bound does not cover the NULL stream", std::nullopt;
    Time longest = 1;
    for (const Stream& s : w.streams) longest = std::max<Time>(longest, s.arrival.period + s.arrival.offset);
    std::optional<BusyWindow> window = busy_window(w, longest * 1000, why);
    if (!window) return std::nullopt;
    if (o.window_mutation == BusyWindowMutation::one_frame_fewer)
        for (std::int64_t& n : window->frames) n = std::max<std::int64_t>(1, n - 1);
    std::optional<Unrolled> u;
    try {
        u = busy_window_frames(w, *window, o.window_mutation);
    } catch (const InputError& e) {  // too many frames to unroll
        return why = e.what(), std::nullopt;
    }
    if (o.window_mutation == BusyWindowMutation::waits_dropped)
        for (Operation& op : u->workload.ops) op.wait_latest.clear();
    InterferenceOptions io;
    io.mutation = o.mutation;
    const InterferenceBounds ib = interference_bounds(u->workload, budget, io);
    if (ib.stopped || budget.expired()) return why = "the time ran out", std::nullopt;
    BusyWindowBounds out{*window, std::vector<std::optional<Time>>(w.ops.size())};
    for (std::size_t i = 0; i < u->origin.size(); ++i) {
        const std::optional<Time>& r = ib.response[i];
        if (!r) return why = "the interference bound leaves '" + u->workload.ops[i].name + "' unbounded", std::nullopt;
        std::optional<Time>& up = out.upper[file_operation(*u, static_cast<int>(i))];
        if (!up || *up < *r) up = r;
    }
    return out;
}

}  // namespace gpuwcrt
