#include "bounds/frames/sliced_busy_window.hpp"

#include <algorithm>
#include <functional>

#include "bounds/frames/busy_window.hpp"
#include "model/rounding.hpp"

namespace gpuwcrt {
namespace {

bool context_has_kernel(const Workload& w, int context) {
    for (const Operation& op : w.ops)
        if (op.is_kernel() && w.streams[op.stream].context == context) return true;
    return false;
}

// Whether every copy is one of the context's: then the context holds the GPU only at instants
// its own frames cover (its kernel waiting for a copy waits behind one of its own copies).
bool copies_only_in(const Workload& w, int context) {
    for (const Operation& op : w.ops)
        if (!op.is_kernel() && w.streams[op.stream].context != context) return false;
    return true;
}

int streams_in(const Workload& w, int context) {
    int n = 0;
    for (const Stream& s : w.streams) n += s.context == context ? 1 : 0;
    return n;
}

// Per stream, what one frame brings to a busy window of its context (fact 10): the instants it
// covers, among them every instant its context holds the GPU for it; its kernels and copies.
struct SliceCosts {
    std::vector<Time> cost, copies;
    std::vector<std::int64_t> kernels;
};

SliceCosts slice_costs(const Workload& w) {
    const std::size_t n = w.streams.size();
    SliceCosts c{std::vector<Time>(n), std::vector<Time>(n), std::vector<std::int64_t>(n)};
    for (std::size_t s = 0; s < n; ++s) {
        const int stream = static_cast<int>(s);
        // A context has SMs of its own (semantics §10): a stream alone in it shares them with none.
        c.cost[s] = streams_in(w, w.streams[s].context) == 1 ? alone_cost(w, stream) : busy_cost(w, stream);
        for (const int i : w.stream_ops(stream)) {
            if (w.ops[i].is_kernel()) ++c.kernels[s];
            else c.copies[s] += w.ops[i].time.hi;
        }
    }
    return c;
}

// Per stream: a bound on every frame's response (release to completion), when one is proven.
using FrameBounds = std::vector<std::optional<Time>>;

// The most of a stream's frame costs that falls into a window of length t, when each frame's
// instants lie within `response` of its release: the frames released in the window and one
// before it, that one at most up to its completion (the workload of a sporadic task with carry-in).
Time stream_work_in(const Arrival& a, const Time& cost, const Time& response, const Time& t) {
    if (!a.repeats()) return cost;
    const Time reach = std::max<Time>(0, t + response + a.jitter - cost);
    const BigInt whole = floor_of(reach / a.period);
    return cost * Time(whole) + std::min(cost, reach - a.period * Time(whole));
}

struct SliceWindow {
    const Workload& w;
    const SliceCosts& costs;
    const FrameBounds& bounds;
    int context;
    SlicedMutation m;

    // What fills g gaps of the context within a window of length t: in each, one slice of every
    // other context that has a kernel (no more than that context's work in the window) and one
    // switch more than those (fact 8).
    Time gaps(const std::int64_t g, const Time& t) const {
        if (m == SlicedMutation::no_gaps || g == 0) return 0;
        const Time theta = m == SlicedMutation::no_switch ? Time(0) : w.platform.context_switch;
        Time out = theta * g;
        for (std::size_t j = 0; j < w.contexts.size(); ++j) {
            if (static_cast<int>(j) == context || !context_has_kernel(w, static_cast<int>(j))) continue;
            out += theta * g;
            Time slices = w.contexts[j].timeslice * g;
            std::optional<Time> work;
            if (copies_only_in(w, static_cast<int>(j))) work = Time(0);
            for (std::size_t s = 0; s < w.streams.size() && work; ++s)
                if (w.streams[s].context == static_cast<int>(j))
                    work = bounds[s] ? std::optional<Time>(
                                           *work + stream_work_in(w.streams[s].arrival, costs.cost[s], *bounds[s], t))
                                     : std::nullopt;
            out += work ? std::min(slices, *work) : slices;
        }
        return out;
    }

    // C_c over a window of length t (fact 11): the own frames' costs (only the first `first`
    // frames' when the context has one stream and a frame's completion is asked), the other
    // contexts' copies, and a gap per kernel issue and per full slice.
    Time demand(const Time& t, std::optional<std::int64_t> first = std::nullopt) const {
        Time own = 0, copies = 0;
        std::int64_t issues = 0;
        for (std::size_t s = 0; s < w.streams.size(); ++s) {
            const std::int64_t n = frames_by(w.streams[s].arrival, t);
            if (w.streams[s].context != context) {
                copies += costs.copies[s] * n;
                continue;
            }
            own += costs.cost[s] * (first ? std::min(*first, n) : n);
            // Before frame q completes, the context turns pending only after a phase without a
            // pending kernel, which begins at the start or at a kernel completion of frames 1..q
            // (one stream: later frames complete nothing earlier) — not at frame q's last
            // operation when that is a kernel.
            const std::int64_t phases = first ? costs.kernels[s] * *first + (ends_with_kernel(s) ? 0 : 1) : n;
            issues += std::min(costs.kernels[s] * n, first ? phases : costs.kernels[s] * n);
        }
        if (m == SlicedMutation::no_issue_gaps) issues = 0;
        const BigInt full = floor_of(own / w.contexts[context].timeslice);
        return own + copies + gaps(issues + full.convert_to<std::int64_t>(), t);
    }

    bool ends_with_kernel(std::size_t s) const {
        const std::vector<int> ops = w.stream_ops(static_cast<int>(s));
        return !ops.empty() && w.ops[ops.back()].is_kernel();
    }

    // The demand's growth per unit of time, far out: below 1, every fixed point is reached.
    Time load() const {
        Time own = 0, copies = 0, issues = 0;
        for (std::size_t s = 0; s < w.streams.size(); ++s) {
            const Arrival& a = w.streams[s].arrival;
            if (!a.repeats()) continue;
            if (w.streams[s].context != context) copies += costs.copies[s] / a.period;
            else own += costs.cost[s] / a.period, issues += Time(costs.kernels[s]) / a.period;
        }
        const Time g = own / w.contexts[context].timeslice + (m == SlicedMutation::no_issue_gaps ? Time(0) : issues);
        if (m == SlicedMutation::no_gaps) return own + copies;
        const Time theta = m == SlicedMutation::no_switch ? Time(0) : w.platform.context_switch;
        Time out = own + copies + theta * g;
        for (std::size_t j = 0; j < w.contexts.size(); ++j) {
            if (static_cast<int>(j) == context || !context_has_kernel(w, static_cast<int>(j))) continue;
            // Only where the last round bounded its frames (as in gaps()).
            std::optional<Time> work;
            if (copies_only_in(w, static_cast<int>(j))) work = Time(0);
            for (std::size_t s = 0; s < w.streams.size(); ++s) {
                if (w.streams[s].context != static_cast<int>(j)) continue;
                if (!bounds[s]) work.reset();
                if (work && w.streams[s].arrival.repeats()) *work += costs.cost[s] / w.streams[s].arrival.period;
            }
            const Time slices = w.contexts[j].timeslice * g;
            out += theta * g + (work ? std::min(slices, *work) : slices);
        }
        return out;
    }
};

constexpr int max_slice_rounds = 100'000;

// The least fixed point of t = f(t), from below (f grows with t), or nullopt past `limit`.
std::optional<Time> least_fixed_point(const std::function<Time(const Time&)>& f, const Time& limit) {
    Time t = 0;
    for (int round = 0; round < max_slice_rounds; ++round) {
        const Time next = f(t);
        if (next == t) return t;
        if (next > limit) return std::nullopt;
        t = next;
    }
    return std::nullopt;
}

constexpr std::int64_t max_frames_asked = 10'000;

// A context with one stream: frame q of a busy period completes once the first q frames' costs
// and the gaps until then are spent; it was released at least (q − 1)T − J after the start.
std::optional<Time> single_stream_response(const SliceWindow& sw, int stream, const Time& window, const Time& limit) {
    const Arrival& a = sw.w.streams[stream].arrival;
    const std::int64_t frames = frames_by(a, window);
    if (frames > max_frames_asked) return window;
    Time worst = 0;
    for (std::int64_t q = 1; q <= frames; ++q) {
        const std::optional<Time> done = least_fixed_point([&](const Time& t) { return sw.demand(t, q); }, limit);
        if (!done) return window;
        worst = std::max<Time>(worst, *done - std::max<Time>(0, a.period * (q - 1) - a.jitter));
    }
    return std::min(worst, window);
}

struct ContextResult {
    std::optional<ContextWindow> window;
    std::string why;
};

ContextResult context_window(const SliceWindow& sw, const Time& limit) {
    const Workload& w = sw.w;
    ContextResult out;
    const std::string who = "context '" + w.contexts[sw.context].name + "'";
    const Time load = sw.load();
    if (load >= 1)
        return out.why = who + ": its frames' costs with their waits for the other contexts add up to " +
                         human_string(load) + " per unit of time (at least 1): no busy period is proven to end",
               out;
    const std::optional<Time> x = least_fixed_point([&sw](const Time& t) { return sw.demand(t); }, limit);
    if (!x)
        return out.why = who + ": the busy window passes " + human_string(limit) + ": no busy period is proven to end",
               out;
    out.window = ContextWindow{sw.context, w.contexts[sw.context].name, context_gap(w, sw.context, sw.m), *x};
    return out;
}

// One round: every context's busy window and its streams' frame bounds, the other contexts'
// work in a gap bounded by `known` (the last round's bounds, or their slices alone).
FrameBounds bound_round(const Workload& w, const SliceCosts& costs, const FrameBounds& known, const Time& limit,
                        SlicedMutation m, std::vector<ContextWindow>& windows, std::string& why) {
    FrameBounds out(w.streams.size());
    windows.clear();
    for (std::size_t c = 0; c < w.contexts.size(); ++c) {
        const SliceWindow sw{w, costs, known, static_cast<int>(c), m};
        const ContextResult r = context_window(sw, limit);
        if (!r.window) {
            if (why.empty()) why = r.why;
            continue;
        }
        windows.push_back(*r.window);
        for (std::size_t s = 0; s < w.streams.size(); ++s) {
            if (w.streams[s].context != static_cast<int>(c)) continue;
            // A frame is released in a busy period of its context and completes in it.
            out[s] = streams_in(w, static_cast<int>(c)) == 1
                         ? single_stream_response(sw, static_cast<int>(s), r.window->length, limit)
                         : r.window->length;
        }
    }
    return out;
}

constexpr int max_bound_rounds = 6;

}  // namespace

Time context_gap(const Workload& w, int context, SlicedMutation m) {
    if (m == SlicedMutation::no_gaps) return 0;
    const Time theta = m == SlicedMutation::no_switch ? Time(0) : w.platform.context_switch;
    Time gap = theta;  // the switch back into the context
    for (std::size_t j = 0; j < w.contexts.size(); ++j)
        if (static_cast<int>(j) != context && context_has_kernel(w, static_cast<int>(j)))
            gap += w.contexts[j].timeslice + theta;
    return gap;
}

std::optional<SlicedBusyWindowBounds> sliced_busy_window_bounds(const Workload& w, std::string& why, SlicedMutation m) {
    if (w.has_wait()) return why = "a busy window pairs no frames for `wait`", std::nullopt;
    if (w.null_stream() >= 0)
        return why = "the busy window under time slices does not cover the NULL stream", std::nullopt;
    Time longest = 1;
    for (const Stream& s : w.streams) longest = std::max<Time>(longest, s.arrival.period + s.arrival.offset);
    const SliceCosts costs = slice_costs(w);
    // Each round's bounds hold given the last round's, so each stream keeps its least; the first
    // round charges every gap the other contexts' whole slices.
    FrameBounds bounds(w.streams.size());
    SlicedBusyWindowBounds out;
    for (int round = 0; round < max_bound_rounds; ++round) {
        std::string round_why;
        std::vector<ContextWindow> windows;
        const FrameBounds next = bound_round(w, costs, bounds, longest * 1000, m, windows, round_why);
        bool tighter = false;
        for (std::size_t s = 0; s < bounds.size(); ++s)
            if (next[s] && (!bounds[s] || *next[s] < *bounds[s])) bounds[s] = next[s], tighter = true;
        if (round == 0 || tighter) out.windows = windows, why = round_why;
        if (!tighter) break;
    }
    if (out.windows.empty()) return std::nullopt;
    out.upper.resize(w.ops.size());
    for (std::size_t i = 0; i < w.ops.size(); ++i) out.upper[i] = bounds[w.ops[i].stream];
    return out;
}

}  // namespace gpuwcrt
