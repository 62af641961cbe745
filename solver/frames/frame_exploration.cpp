#include "solver/frames/frame_exploration.hpp"

#include <new>
#include <optional>

#include "model/frames/horizon.hpp"
#include "model/frames/transforms.hpp"
#include "model/frames/unroll.hpp"
#include "solver/exact/level_search.hpp"
#include "solver/exact/state.hpp"

namespace gpuwcrt {
namespace {

using namespace exact;

std::string scope_problem(const Workload& w) {
    if (w.null_stream() >= 0) return "the NULL stream";
    for (const Operation& op : w.ops)
        for (const int t : op.wait)
            if (waits_across_rates(w.streams[op.stream].arrival, w.streams[w.ops[t].stream].arrival))
                return "'" + op.name + "' waits across rates on '" + w.ops[t].name + "'";
    if (std::string gap = pattern_gap(w); !gap.empty()) return gap;
    for (const Stream& s : w.streams) {
        if (s.arrival.kind != Arrival::Kind::periodic) return "stream '" + s.name + "' is not periodic";
        if (s.arrival.jitter != 0) return "stream '" + s.name + "' has release jitter";
    }
    return "";
}

// The window: `periods` hyperperiods unrolled, operations of one hyperperiod contiguous and in
// the same order in each (unroll orders them by release, then file order).
struct Window {
    Unrolled u;
    Problem p;
    int per = 0;  // operations per hyperperiod
    int periods = 0;
    std::int64_t shift = 0;        // one hyperperiod, in ticks
    std::vector<int> stream_pred;  // per operation: the one before it in its stream, or -1
};

std::string check_window(const Workload& w, const Window& win, const Time& H) {
    const Workload& u = win.u.workload;
    for (std::size_t i = static_cast<std::size_t>(win.per); i < u.ops.size(); ++i) {
        const FrameOrigin& a = win.u.origin[i - static_cast<std::size_t>(win.per)];
        const FrameOrigin& b = win.u.origin[i];
        const Time T = w.streams[u.ops[i].stream].arrival.period;  // same stream indices
        if (a.op != b.op || Time(b.frame - a.frame) * T != H)
            return "the frames of successive hyperperiods are not listed alike";
    }
    for (const Operation& op : u.ops)
        if (op.issue.release) return "'" + op.name + "' is issued after_stream_idle";
    // A frame's first operation is issued at its own instant, after the previous frame's issue.
    for (std::size_t i = 0; i < u.ops.size(); ++i)
        if (win.stream_pred[i] >= 0 &&
            win.u.origin[i].frame != win.u.origin[static_cast<std::size_t>(win.stream_pred[i])].frame &&
            u.ops[i].issue.kind != IssueSpec::Kind::at)
            return "'" + u.ops[i].name + "' is issued with the previous frame's last operation";
    if (win.p.ranges) return "a block-time interval or issue window";
    return "";
}

// Whether the window may move on: every operation of its first hyperperiod completed.
bool movable(const Window& win, const State& s) {
    for (int i = 0; i < win.per; ++i)
        if (s.ops[i].phase != Phase::completed) return false;
    return true;
}

// The state of a frame operation the moved window adds, as G1 (exact/step.cpp) would have set
// it: nothing of it has happened (it is released at or after the horizon, beyond every instant
// so far), and it is known to be issued at its own instant once its stream predecessor, the
// last operation of the previous frame, has been issued.
OpState fresh(const Window& win, const std::vector<OpState>& ops, int i) {
    const int pred = win.stream_pred[static_cast<std::size_t>(i)];
    if (pred < 0 || ops[static_cast<std::size_t>(pred)].phase == Phase::unknown ||
        ops[static_cast<std::size_t>(pred)].phase == Phase::pending)
        return OpState{};
    return OpState{Phase::pending, win.p.times.issue_lo[static_cast<std::size_t>(i)], 0, 0};
}

// The window one hyperperiod on: operation i + per becomes i, every instant moves back by one
// hyperperiod, and the last hyperperiod's operations start afresh (nothing issued yet).
void move_on(const Window& win, State& s, bool drop_carry_over) {
    const std::int64_t d = win.shift;
    std::vector<OpState> ops(s.ops.size());
    for (int i = 0; i + win.per < win.p.n; ++i) {
        OpState o = s.ops[i + win.per];
        if (drop_carry_over && o.phase != Phase::unknown && o.phase != Phase::pending) o.phase = Phase::completed;
        if (o.phase != Phase::unknown) o.issue -= d;
        if (o.phase == Phase::determined) o.aux -= d;
        if (o.last_end != 0) o.last_end -= d;
        ops[i] = o;
    }
    for (int i = win.p.n - win.per; i < win.p.n; ++i) ops[i] = fresh(win, ops, i);
    s.ops = std::move(ops);
    for (Queue& q : s.queues) {
        if (q.head >= 0) q.head -= win.per;
        for (Group& g : q.groups)
            for (int& op : g) op -= win.per;
        if (drop_carry_over) q = Queue{};
    }
    for (auto& blocks : s.sm)
        for (exact::RunningBlock& b : blocks) b.end -= d;
    if (drop_carry_over)
        for (auto& blocks : s.sm) blocks.clear();
    s.now -= d;
}

// The window as a mode of the level search: a step that reaches the horizon (the next window's
// first release: instants from there on would see frames the window leaves out) or after which
// nothing is left to happen (every frame of the window done: it ran out) shows the window too
// short; a state whose first hyperperiod has completed moves on.
class WindowSteps final : public FixedPointMode {
public:
    WindowSteps(const Window& win, bool drop_carry_over)
        : win_(win), horizon_(win.shift * win.periods), drop_carry_over_(drop_carry_over) {}

    bool follow(State& child, bool has_child) const override {
        if (child.now >= horizon_ || !has_child) return false;
        if (movable(win_, child)) move_on(win_, child, drop_carry_over_);
        return true;
    }

private:
    const Window& win_;
    std::int64_t horizon_;
    bool drop_carry_over_;
};

// How the exploration over one window ended: closed (every state reached had been seen before),
// the window too short for the frames it carries over, or stopped (the state limit or the
// budget) before either was known.
struct WindowEnd {
    bool too_short = false;
    std::optional<StopReason> stop;
};

// The exploration over one window: every state reached, the window moved on wherever it may be;
// each operation's largest response taken by its operation in the file.
WindowEnd explore_window(const Window& win, const Budget& budget, const FrameExplorationOptions& o,
                         FrameExploration& out, std::vector<std::optional<std::int64_t>>& worst) {
    const WindowSteps steps(win, o.drop_carry_over);
    LevelSearchShape shape;
    // One thread: the window's levels are small, and worker threads started for each would cost
    // more than they expand.
    shape.threads = 1;
    shape.max_states = o.max_states + 1;  // the limit is on the states kept: the first beyond it stops
    shape.fixed_point = &steps;
    OneProcess one_process;
    LevelSearch search(win.p, budget, shape, one_process, {});
    search.start({});
    search.run();
    if (search.ended()) return {true, std::nullopt};
    if (search.stopped()) return {false, search.stopped()};
    const std::vector<std::int64_t> largest = search.largest();
    for (int op = 0; op < win.p.n; ++op) {
        if (largest[static_cast<std::size_t>(op)] == LevelSearch::nothing_found) continue;
        auto& best = worst[static_cast<std::size_t>(file_operation(win.u, op))];
        if (!best || largest[static_cast<std::size_t>(op)] > *best) best = largest[static_cast<std::size_t>(op)];
    }
    out.states += search.stored();
    return {};
}

}  // namespace

std::optional<FrameExploration> explore_frames(const Workload& w, const Budget& budget, std::string& why,
                                               const FrameExplorationOptions& o) {
    if (std::string problem = scope_problem(w); !problem.empty())
        return why = "out of the exploration's scope: " + problem, std::nullopt;
    const Time H = hyperperiod(w);
    FrameExploration out;
    for (int periods = 2; periods <= o.max_window; ++periods) {
        std::optional<Window> win;
        try {
            Unrolled u = unroll(w, hyperperiods_of(w, periods));
            win.emplace(Window{std::move(u), {}, 0, periods, 0, {}});
            win->p = make_problem(win->u.workload, Policy::chooser);
        } catch (const InputError& e) {
            return why = e.what(), std::nullopt;
        }
        if (win->p.n % periods != 0) return why = "the frames of successive hyperperiods differ", std::nullopt;
        win->per = win->p.n / periods;
        win->stream_pred.assign(static_cast<std::size_t>(win->p.n), -1);
        for (int i = 0; i < win->p.n; ++i)
            if (win->p.next_in_stream[static_cast<std::size_t>(i)] >= 0)
                win->stream_pred[static_cast<std::size_t>(win->p.next_in_stream[static_cast<std::size_t>(i)])] = i;
        // The last operations of the window have a successor beyond it: their completion is observed.
        for (int i = 0; i < win->p.n; ++i)
            if (win->p.next_in_stream[static_cast<std::size_t>(i)] < 0)
                win->p.completion_observed[static_cast<std::size_t>(i)] = 1;
        const Time shift = H * win->p.times.scale;
        win->shift = static_cast<std::int64_t>(boost::multiprecision::numerator(shift));
        if (std::string problem = check_window(w, *win, H); !problem.empty())
            return why = "out of the exploration's scope: " + problem, std::nullopt;
        std::vector<std::optional<std::int64_t>> worst(w.ops.size());
        WindowEnd end;
        try {
            end = explore_window(*win, budget, o, out, worst);
        } catch (const std::bad_alloc&) {
            end.stop = StopReason::memory;
        }
        if (end.stop == StopReason::states)
            return why = "more than " + std::to_string(o.max_states) + " states", std::nullopt;
        if (end.stop) return why = to_string(*end.stop) + " while the frames were explored", std::nullopt;
        if (end.too_short) continue;
        out.window = periods;
        out.worst.resize(w.ops.size());
        for (std::size_t i = 0; i < worst.size(); ++i)
            if (worst[i]) out.worst[i] = win->p.times.to_time(*worst[i]);
        return out;
    }
    return why = "frames carry over beyond " + std::to_string(o.max_window - 1) + " hyperperiods", std::nullopt;
}

}  // namespace gpuwcrt
