#include "solver/frames/all_time.hpp"

#include <algorithm>
#include <functional>

#include "bounds/frames/busy_window.hpp"
#include "bounds/frames/steady_state.hpp"
#include "bounds/interference/interference.hpp"
#include "model/integer_time.hpp"
#include "model/issue_bounds.hpp"
#include "sim/frames/frame_consistency.hpp"
#include "sim/search/lower_bounds.hpp"
#include "sim/simulate.hpp"
#include "solver/frames/phased_lower_bounds.hpp"
#include "solver/registry.hpp"

namespace gpuwcrt {
namespace {

// Whether the releases repeat a pattern every hyperperiod from the start: every repeating stream
// periodic, with its offset below its period. Otherwise the busy window bounds the frames.
bool repeats_a_pattern(const Workload& w) {
    for (const Stream& s : w.streams) {
        const Arrival& a = s.arrival;
        if (a.kind == Arrival::Kind::sporadic || (a.kind == Arrival::Kind::periodic && a.offset >= a.period))
            return false;
    }
    return true;
}

// The streams that repeat, alone: what runs after the streams that run once have finished.
// `to_file[i]`: the operation of `w` that operation i of the result is.
Workload repeating_part(const Workload& w, std::vector<int>& to_file) {
    Workload out = w;
    out.streams.clear();
    out.ops.clear();
    std::vector<int> stream_index(w.streams.size(), -1), op_index(w.ops.size(), -1);
    for (std::size_t s = 0; s < w.streams.size(); ++s)
        if (w.streams[s].arrival.repeats()) {
            stream_index[s] = static_cast<int>(out.streams.size());
            out.streams.push_back(w.streams[s]);
        }
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        if (stream_index[w.ops[i].stream] < 0) continue;
        op_index[i] = static_cast<int>(out.ops.size());
        to_file.push_back(static_cast<int>(i));
        out.ops.push_back(w.ops[i]);
        out.ops.back().stream = stream_index[w.ops[i].stream];
    }
    for (Operation& op : out.ops)
        for (int& t : op.wait) t = op_index[t];  // waits pair streams of one period only
    out.expectations.clear();
    out.scenario.reset();
    return out;
}

struct Closure {
    int k = 0;
    Unrolled unrolled;
    InterferenceBounds bounds;            // response and done: the least of every argument that ran
    std::vector<Provenance> response_by;  // per unrolled operation: who proved its response bound
    std::optional<EngineRun> searched;    // auto's run on the frames, when it ran
};

bool idle_by(const InterferenceBounds& b, const Time& end) {
    for (const auto& d : b.done)
        if (!d || *d > end) return false;
    return true;
}

constexpr std::size_t max_searched_operations = 500;

// The one-frame engines (auto: exact, abstraction, SMT) on the unrolled frames, for tighter
// completions than the interference bound's: done <= issue + response where the issue instant
// is known. Only where every engine ranges over the frames: no wait, no after_stream_idle in a
// frame (whose release the one-frame engines do not model).
void tighten_with_auto(Closure& c, const Budget& budget, const AllTimeOptions& o) {
    const Workload& w = c.unrolled.workload;
    // Beyond a few hundred operations the one-frame engines decide nothing in seconds (the
    // abstraction and enumeration refuse them, the SMT encoding grows with the ticks).
    if (w.has_wait() || w.ops.size() > max_searched_operations) return;
    for (const Operation& op : w.ops)
        if (op.issue.release) return;
    if (o.search_cap.count() == 0 || budget.expired()) return;
    const Budget part = budget.slice(1, 2);
    std::vector<int> all(w.ops.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
    try {
        c.searched = engine_named("auto").run(EngineRequest{w, all, EngineOptions{}, {}, {}}, part);
    } catch (const InputError&) {
        return;  // out of the engines' integer time: the interference bound stands
    }
    const std::vector<IssueBounds<Time>> issue = issue_bounds(w);
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        const std::optional<Time>& upper = c.searched->answers[i].upper;
        if (!upper) continue;
        std::optional<Time>& r = c.bounds.response[i];
        if (!r || *upper < *r) {
            r = upper;
            c.response_by[i] = c.searched->answers[i].upper_by;
        }
        std::optional<Time>& d = c.bounds.done[i];
        if (issue[i].hi && (!d || *issue[i].hi + *upper < *d)) d = *issue[i].hi + *upper;
    }
}

// The least k (up to the limit, within the budget) at which every operation of k hyperperiods
// is proven complete by k·H: the GPU is then idle at k·H in every scenario.
std::optional<Closure> close(const Workload& w, const Time& H, const Budget& budget, const AllTimeOptions& o,
                             int first_k = 1) {
    const Budget engines = budget.capped(o.search_cap);
    for (int k = first_k; k <= o.max_hyperperiods && !budget.expired(); ++k) {
        Closure c{k, unroll(w, Horizon::hyperperiods(k, {w.source, 0, 0})), {}, {}, {}};
        InterferenceOptions io;
        io.mutation = o.mutation;
        c.bounds = interference_bounds(c.unrolled.workload, budget, io);
        c.response_by.assign(c.bounds.response.size(), Provenance::interference);
        if (c.bounds.stopped) return std::nullopt;
        if (o.assume_idle) return c;
        // The engines tighten the bounds of a closed k as well: the interference bound alone is
        // often twice the worst case.
        tighten_with_auto(c, engines, o);
        if (idle_by(c.bounds, H * k)) return c;
    }
    return std::nullopt;
}

// Every frame's response bound, for all time, of the operations `c` unrolled.
void take_upper(const Closure& c, const std::vector<int>& to_file, std::vector<WcrtAnswer>& answers) {
    for (std::size_t i = 0; i < c.unrolled.origin.size(); ++i) {
        WcrtAnswer& a = answers[to_file[c.unrolled.origin[i].op]];
        const std::optional<Time>& r = c.bounds.response[i];
        if (!r) continue;
        if (!a.upper || *a.upper < *r) {
            a.upper = r;
            a.upper_by = c.response_by[i];
        }
    }
}

}  // namespace

namespace {

Workload without_jitter(const Workload& w) {
    Workload out = w;
    for (Stream& s : out.streams) s.arrival.jitter = 0;
    return out;
}

// Keeps `x`, a scenario of `u` in which unrolled operation i responds in `response`, as its
// operation's lower bound when it is better and a scenario of the system (see take_lower).
void keep_lower(const Workload& w, const Unrolled& u, const Time& end, int i, const Time& response,
                const WitnessScenario& x, Provenance by, AllTimeResult& r) {
    WcrtAnswer& a = r.answers[u.origin[i].op];
    if ((a.lower && response <= *a.lower) || !frames_consistent(w, u, x)) return;
    const Schedule replayed = replay_witness(u.workload, x, i, response);
    if (replayed.ops[i].finish > end) return;
    a.lower = response;
    a.witness = x;
    a.lower_by = by;
    r.frame[u.origin[i].op] = u.origin[i].frame;
}

// A response of unrolled operation `op`, with the scenario that gives it (made only when needed).
struct LowerCandidate {
    int op;
    Time response;
    std::function<WitnessScenario()> witness;
    Provenance by;
};

// The candidates, best first: each replay simulates every frame, so an operation of the file
// stops at its best candidate that is a scenario of the system, and the replays stop with the
// budget (lower bounds are what the time allows; the upper bounds are already proven).
void keep_best_lowers(const Workload& w, const Unrolled& u, const Time& end, std::vector<LowerCandidate> candidates,
                      const Budget& budget, AllTimeResult& r) {
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const LowerCandidate& a, const LowerCandidate& b) { return a.response > b.response; });
    for (const LowerCandidate& c : candidates) {
        if (budget.expired()) return;
        const WcrtAnswer& a = r.answers[u.origin[c.op].op];
        if (!a.lower || *a.lower < c.response) keep_lower(w, u, end, c.op, c.response, c.witness(), c.by, r);
    }
}

// A simulation costs about one step per operation: the scenarios searched shrink as the
// frames grow, so that the search takes about the same time on every workload (its later
// scenarios seldom improve a bound).
long simulations_for(const Workload& w, const AllTimeOptions& o) {
    const long per_run = 30'000 / static_cast<long>(std::max<std::size_t>(1, w.ops.size()));
    return std::clamp(per_run, std::min(50L, o.lower_bound_simulations), o.lower_bound_simulations);
}

// Replayed lower bounds from the scenario search, kept when the scenario is one of the system:
// each frame released at one instant (frames_consistent), every operation it bounds complete by
// `end`, before any frame left out of `u` is released. First on `u` itself, then on its frames
// released without jitter, whose scenarios are scenarios of `u` with every frame released at
// the start of its window (the same operations, in the same order).
void take_lower(const Workload& w, const Unrolled& u, int k, const Budget& budget, const AllTimeOptions& o,
                AllTimeResult& r) {
    const Time end = r.hyperperiod * k;
    const Workload& uw = u.workload;
    bool jitter = false;
    for (const Stream& st : w.streams) jitter = jitter || st.arrival.jitter != 0;
    std::optional<Unrolled> still;  // only with jitter is it another workload
    if (jitter) still = unroll(without_jitter(densest(w)), Horizon::hyperperiods(k, {w.source, 0, 0}));
    // Where `u` widens sporadic frames' windows for their phasings (below), the search first
    // draws from the densest ones, whose scenarios are u's with the same operations in the same
    // order (its windows' lower ends): drawn from u's, most would bring frames too close.
    std::optional<Unrolled> densest_frames;
    if (has_sporadic_stream(w)) densest_frames = unroll(densest(w), Horizon::hyperperiods(k, {w.source, 0, 0}));
    std::vector<const Workload*> searches{densest_frames ? &densest_frames->workload : &uw};
    if (still) searches.push_back(&still->workload);
    const auto started = Budget::Clock::now();
    for (std::size_t round = 0; round < searches.size(); ++round) {
        const Workload* searched = searches[round];
        // Three quarters of what is left to the searches, the rest to replaying what they found.
        const Budget part = budget.slice(3, 4 * static_cast<long long>(searches.size() - round));
        std::optional<IntegerTimes> times;
        try {
            times = integer_times(*searched);
        } catch (const InputError&) {
            return;  // times finer than integer ticks: no random scenarios to draw
        }
        search::LowerBoundSearch s(*searched, *times, Policy::chooser, o.seed);
        s.run(simulations_for(*searched, o), part);
        r.simulations += s.simulations();
        std::vector<LowerCandidate> candidates;
        for (std::size_t i = 0; i < uw.ops.size(); ++i)
            if (const std::optional<Time>& best = s.best()[i])
                candidates.push_back({static_cast<int>(i), *best, [&s, i] { return s.witness(static_cast<int>(i)); },
                                      Provenance::frame_search});
        keep_best_lowers(w, u, end, std::move(candidates), budget, r);
    }
    // The phasings of sporadic streams: their best scenarios, carried over to `u`, in at most
    // half the time the searches above took (at least 0.2 s).
    const auto spent =
        std::max<Budget::Clock::duration>((Budget::Clock::now() - started) / 2, std::chrono::milliseconds(200));
    const Budget phasing = budget.slice(3, 4).capped(std::chrono::duration_cast<std::chrono::milliseconds>(spent));
    std::vector<LowerCandidate> phased;
    for (PhasedCandidate& c : phased_candidates(w, u, phasing, simulations_for(uw, o) / 8, o.seed, r.simulations))
        phased.push_back({c.op, c.response, [x = c.witness] { return *x; }, Provenance::frame_search});
    keep_best_lowers(w, u, end, std::move(phased), budget, r);
}

// As many hyperperiods as o allows, within about 2000 unrolled operations.
int lower_bound_hyperperiods(const Workload& w, const AllTimeOptions& o) {
    const Time H = hyperperiod(w);
    Time per_hyperperiod = 0;
    for (const Operation& op : w.ops) {
        const Arrival& a = w.streams[op.stream].arrival;
        per_hyperperiod += a.repeats() ? H / a.period : Time(1);
    }
    int k = 1;
    while (k < o.max_hyperperiods && per_hyperperiod * (k + 1) <= 2000) ++k;
    return k;
}

}  // namespace

namespace {

// The steady state (bounds/frames/steady_state.hpp), when every stream is periodic: streams
// that run once do not repeat.
std::optional<SteadyBounds> try_steady(const Workload& w, const Budget& budget, const AllTimeOptions& o,
                                       AllTimeResult& r) {
    for (const Stream& s : w.streams)
        if (!s.arrival.repeats()) return std::nullopt;
    SteadyOptions so;
    so.mutation = o.mutation;
    so.from_idle = o.steady_from_idle;
    std::optional<SteadyBounds> steady = steady_bounds(w, budget, so, r.steady_why);
    if (steady) r.steady_over = steady->hyperperiods;
    return steady;
}

}  // namespace

namespace {

// Closures and the steady state, on releases that repeat every hyperperiod: each operation's
// least bound, and the closure found, if any (its frames are searched for lower bounds).
std::optional<Closure> bound_repeating(const Workload& w, const Budget& upper, const AllTimeOptions& opt,
                                       AllTimeResult& r) {
    std::vector<int> identity(w.ops.size());
    for (std::size_t i = 0; i < identity.size(); ++i) identity[i] = static_cast<int>(i);
    // First a closure after one hyperperiod (the engines tighten it); else the steady state,
    // which needs no idle instant; else closures after more hyperperiods.
    AllTimeOptions one = opt;
    one.max_hyperperiods = 1;
    upper.counters().start_phase("all time: is the GPU idle after one hyperperiod");
    std::optional<Closure> first = close(w, r.hyperperiod, upper, one);
    upper.counters().start_phase("all time: a steady state of the bounds");
    const std::optional<SteadyBounds> steady = first ? std::nullopt : try_steady(w, upper, opt, r);
    upper.counters().start_phase("all time: is the GPU idle after 2 to 8 hyperperiods");
    if (!first && !steady) first = close(w, r.hyperperiod, upper, opt, 2);
    bool bounded = first.has_value();
    if (first) {
        r.closed_after = first->k;
        take_upper(*first, identity, r.answers);
        bool once = false;
        for (const Stream& s : w.streams) once = once || !s.arrival.repeats();
        if (once) {  // after k·H only the repeating streams run: their own closure bounds the rest
            std::vector<int> to_file;
            const Workload rest = repeating_part(w, to_file);
            const std::optional<Closure> rest_closure = close(rest, r.hyperperiod, upper, opt);
            if (rest_closure) take_upper(*rest_closure, to_file, r.answers);
            bounded = bounded && rest_closure;
        }
    }
    for (std::size_t i = 0; i < r.answers.size(); ++i) {
        WcrtAnswer& a = r.answers[i];
        if (!bounded || !a.upper) a.upper.reset(), a.upper_by = Provenance::none;
        const std::optional<Time> b = steady ? steady->upper[i] : std::nullopt;
        if (b && (!a.upper || *b < *a.upper)) a.upper = b, a.upper_by = Provenance::steady_state;
    }
    return first;
}

// Per operation, `upper` where it is less than the bound it has (or it has none).
void keep_least_upper(const std::vector<std::optional<Time>>& upper, Provenance by, std::vector<WcrtAnswer>& answers) {
    for (std::size_t i = 0; i < answers.size(); ++i) {
        WcrtAnswer& a = answers[i];
        if (upper[i] && (!a.upper || *upper[i] < *a.upper)) a.upper = upper[i], a.upper_by = by;
    }
}

// The busy window (bounds/frames/busy_window.hpp): each operation keeps the least of its bounds.
void take_busy_window(const Workload& w, const Budget& upper, const AllTimeOptions& o, AllTimeResult& r) {
    upper.counters().start_phase("all time: a busy window");
    BusyWindowOptions bo;
    bo.mutation = o.mutation;
    const std::optional<BusyWindowBounds> b = busy_window_bounds(w, upper, r.busy_why, bo);
    if (!b) return;
    r.busy_window = b->window.length;
    keep_least_upper(b->upper, Provenance::busy_window, r.answers);
}

// The exploration of the frames (solver/frames/frame_exploration.hpp), where every time is
// fixed: the exact worst response of every frame, each operation keeping the least bound.
void take_exploration(const Workload& w, const Budget& upper, const AllTimeOptions& o, AllTimeResult& r) {
    upper.counters().start_phase("all time: the frames explored to a fixed point");
    FrameExplorationOptions fo;
    fo.drop_carry_over = o.explore_drop_carry_over;
    const std::optional<FrameExploration> e = explore_frames(w, upper, r.explore_why, fo);
    if (!e) return;
    r.explored_window = e->window;
    r.explored_states = e->states;
    keep_least_upper(e->worst, Provenance::frame_exploration, r.answers);
}

std::string no_bound_reason(const Budget& upper, const AllTimeResult& r, bool pattern, int max_hyperperiods) {
    if (upper.expired()) return to_string(upper.expiry_reason()) + " before the frames were bounded";
    const std::string busy = "no busy period was proven to end within a bound (" + r.busy_why + ")";
    if (!pattern) return busy;
    const std::string explored =
        r.explore_why.empty() ? "" : ", the frames were not explored to a fixed point (" + r.explore_why + ")";
    return "no hyperperiod up to " + std::to_string(max_hyperperiods) +
           " was proven to end with the GPU idle, the bounds of successive hyperperiods did not settle" + explored +
           ", and " + busy + ": frames may carry over for ever";
}

}  // namespace

AllTimeResult all_time_bounds(const Workload& w, const Budget& given, const AllTimeOptions& o) {
    const Budget budget = given.deadline ? given : given.capped(o.default_time);
    AllTimeOptions opt = o;  // with --timeout, the engines' step is bounded by it alone
    if (given.deadline && opt.search_cap.count() > 0) opt.search_cap = std::max(opt.search_cap, *budget.remaining());
    AllTimeResult r;
    r.answers = unknown_answers(w);
    r.frame.resize(w.ops.size());
    r.hyperperiod = hyperperiod(w);
    if ((r.overload = find_overload(w))) {
        for (WcrtAnswer& a : r.answers)
            a.unknown_reason = r.overload->stream == w.ops[a.op].stream ? "no bound exists: " + r.overload->reason
                                                                        : "no bound: " + r.overload->reason;
        return r;
    }
    // Two thirds of the time to the upper bounds, the rest (and what they leave) to the lower.
    const Budget upper = budget.slice(2, 3);
    const bool pattern = repeats_a_pattern(w);
    std::optional<Closure> first = pattern ? bound_repeating(w, upper, opt, r) : std::nullopt;
    const auto all_bounded = [&r] {
        for (const WcrtAnswer& a : r.answers)
            if (!a.upper) return false;
        return true;
    };
    if (pattern && !all_bounded()) take_exploration(w, upper, opt, r);
    if (!all_bounded()) take_busy_window(w, upper, opt, r);
    for (WcrtAnswer& a : r.answers)
        if (!a.upper) a.unknown_reason = no_bound_reason(upper, r, pattern, o.max_hyperperiods);
    // Without a closure, lower bounds still come from the frames of several hyperperiods, where
    // a backlog has had time to build up; sporadic streams at their densest releases.
    budget.counters().start_phase("all time: lower bounds from replayed frames");
    const Workload dense = densest(w);
    const int searched = first ? first->k : lower_bound_hyperperiods(dense, o);
    Unrolled u = first ? std::move(first->unrolled) : lower_bound_frames(w, dense, searched);
    const Time end = r.hyperperiod * searched;
    if (first && first->searched) {  // the engines' witnesses, replayed by them and again here
        std::vector<LowerCandidate> candidates;
        for (std::size_t i = 0; i < u.workload.ops.size(); ++i) {
            const WcrtAnswer& a = first->searched->answers[i];
            if (a.lower && a.witness)
                candidates.push_back({static_cast<int>(i), *a.lower, [&a] { return *a.witness; }, a.lower_by});
        }
        keep_best_lowers(w, u, end, std::move(candidates), budget, r);
    }
    take_lower(w, u, searched, budget, o, r);
    for (WcrtAnswer& a : r.answers) {
        if (a.lower && a.upper && *a.lower == *a.upper) {
            a.status = WcrtStatus::exact;
            a.unknown_reason.clear();
        } else if (a.upper && a.unknown_reason.empty())
            a.unknown_reason = budget.expired() ? to_string(budget.expiry_reason()) : "the bounds did not meet";
    }
    r.unrolled = std::move(u);
    return r;
}

}  // namespace gpuwcrt
