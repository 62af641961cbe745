#include "solver/frames/all_time.hpp"

#include <algorithm>
#include <memory>

#include "bounds/frames/busy_window.hpp"
#include "bounds/frames/steady_state.hpp"
#include "bounds/interference/interference.hpp"
#include "model/frames/transforms.hpp"
#include "model/integer_time.hpp"
#include "model/issue_bounds.hpp"
#include "sim/search/lower_bounds.hpp"
#include "sim/simulate.hpp"
#include "solver/frames/frame_lower_bounds.hpp"
#include "solver/frames/phased_lower_bounds.hpp"
#include "solver/registry.hpp"

namespace gpuwcrt {
namespace {

struct Closure {
    int k = 0;
    Unrolled unrolled;
    InterferenceBounds bounds;  // done: the least of every argument that ran
    // Per unrolled operation: the meet of every argument's answer (the interference bound's,
    // the engines'); its lower bounds are scenarios of the unrolled frames, not of the system.
    std::vector<WcrtAnswer> response;
    std::optional<EngineRun> searched;  // auto's run on the frames, when it ran
};

// Per operation of `w`, an answer with `upper[i]` as its upper bound, proven by `by`.
std::vector<WcrtAnswer> upper_answers(const Workload& w, const std::vector<std::optional<Time>>& upper, Provenance by) {
    std::vector<WcrtAnswer> out = unknown_answers(w);
    for (std::size_t i = 0; i < out.size(); ++i)
        if (upper[i]) out[i].upper = upper[i], out[i].upper_by = by;
    return out;
}

// Each operation's answer met with `upper`, a bound proven by `by`.
void keep_least_upper(const Workload& w, const std::vector<std::optional<Time>>& upper, Provenance by,
                      std::vector<WcrtAnswer>& answers) {
    const std::vector<WcrtAnswer> proven = upper_answers(w, upper, by);
    for (std::size_t i = 0; i < answers.size(); ++i) absorb(w, answers[i], proven[i], by);
}

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
        c.searched = engine_named(engine_name::automatic).run(EngineRequest{w, all, EngineOptions{}, {}, {}}, part);
    } catch (const InputError&) {
        return;  // out of the engines' integer time: the interference bound stands
    }
    const std::vector<IssueBounds<Time>> issue = issue_bounds(w);
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        absorb(w, c.response[i], c.searched->answers[i], Provenance::none);
        const std::optional<Time>& upper = c.searched->answers[i].upper;
        if (!upper) continue;
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
        Closure c{k, unroll(w, hyperperiods_of(w, k)), {}, {}, {}};
        InterferenceOptions io;
        io.mutation = o.mutation;
        c.bounds = interference_bounds(c.unrolled.workload, budget, io);
        c.response = upper_answers(c.unrolled.workload, c.bounds.response, Provenance::interference);
        if (c.bounds.stopped) return std::nullopt;
        if (o.assume_idle) return c;
        // The engines tighten the bounds of a closed k as well: the interference bound alone is
        // often twice the worst case.
        tighten_with_auto(c, engines, o);
        if (idle_by(c.bounds, H * k)) return c;
    }
    return std::nullopt;
}

// Every frame's response bound, for all time, of the operations `c` unrolled: the join over
// the frames of each operation (their lower bounds are no scenarios of the system: left out).
void take_upper(const Closure& c, const std::vector<int>& to_file, std::vector<WcrtAnswer>& answers) {
    for (std::size_t i = 0; i < c.unrolled.origin.size(); ++i) {
        WcrtAnswer upper = c.response[i];
        upper.lower.reset();
        upper.witness.reset();
        join(answers[to_file[file_operation(c.unrolled, static_cast<int>(i))]], upper);
    }
}

}  // namespace

namespace {

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
                FrameLowerBounds& lower, long long& simulations) {
    const Workload& uw = u.workload;
    bool jitter = false;
    for (const Stream& st : w.streams) jitter = jitter || st.arrival.jitter != 0;
    std::optional<Unrolled> still;  // only with jitter is it another workload
    if (jitter) still = unroll(without_jitter(densest(w)), hyperperiods_of(w, k));
    // Where `u` widens sporadic frames' windows for their phasings (below), the search first
    // draws from the densest ones, whose scenarios are u's with the same operations in the same
    // order (its windows' lower ends): drawn from u's, most would bring frames too close.
    std::optional<Unrolled> densest_frames;
    if (has_sporadic_stream(w)) densest_frames = unroll(densest(w), hyperperiods_of(w, k));
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
        simulations += s.simulations();
        lower.offer_search(s, budget);
    }
    // The phasings of sporadic streams: their best scenarios, carried over to `u`, in at most
    // half the time the searches above took (at least 0.2 s).
    const auto spent =
        std::max<Budget::Clock::duration>((Budget::Clock::now() - started) / 2, std::chrono::milliseconds(200));
    const Budget phasing = budget.slice(3, 4).capped(std::chrono::duration_cast<std::chrono::milliseconds>(spent));
    lower.offer_phasings(phased_candidates(w, u, phasing, simulations_for(uw, o) / 8, o.seed, simulations), budget);
}

// As many hyperperiods as o allows, within about 2000 unrolled operations.
int lower_bound_hyperperiods(const Workload& w, const AllTimeOptions& o) {
    const Time H = hyperperiod(w);
    Time per_hyperperiod = 0;
    for (const Operation& op : w.ops) per_hyperperiod += frames_per_hyperperiod(w.streams[op.stream], H);
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
    // A closure that left the repeating part unbounded bounds no frame after it: forgotten.
    for (WcrtAnswer& a : r.answers)
        if (!bounded) a.upper.reset(), a.upper_by = Provenance::none;
    if (steady) keep_least_upper(w, steady->upper, Provenance::steady_state, r.answers);
    return first;
}

// The busy window (bounds/frames/busy_window.hpp): each operation keeps the least of its bounds.
void take_busy_window(const Workload& w, const Budget& upper, const AllTimeOptions& o, AllTimeResult& r) {
    upper.counters().start_phase("all time: a busy window");
    BusyWindowOptions bo;
    bo.mutation = o.mutation;
    const std::optional<BusyWindowBounds> b = busy_window_bounds(w, upper, r.busy_why, bo);
    if (!b) return;
    r.busy_window = b->window.length;
    keep_least_upper(w, b->upper, Provenance::busy_window, r.answers);
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
    keep_least_upper(w, e->worst, Provenance::frame_exploration, r.answers);
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

// Each answer's status from its bounds; why they did not meet where nothing else says.
AllTimeResult settled(const Budget& budget, AllTimeResult r) {
    const std::string apart = budget.expired() ? to_string(budget.expiry_reason()) : "the bounds did not meet";
    for (WcrtAnswer& a : r.answers) settle(a, a.upper && a.unknown_reason.empty() ? apart : "");
    return r;
}

// The quick round of lower bounds: its frames (heap-held, as `lower` refers to them), what it
// replayed, and its simulations.
struct QuickLower {
    std::unique_ptr<Unrolled> u;
    FrameLowerBounds lower;
    long long simulations = 0;
    Budget budget;  // for the status of its answers
};

// A tenth of the search's simulations, in at most a twentieth of the time; nullopt where the
// frames cannot be unrolled (the full search says why).
std::optional<QuickLower> quick_lower(const Workload& w, const Workload& dense, int k, const Budget& budget,
                                      const AllTimeOptions& o) {
    std::unique_ptr<Unrolled> u;
    try {
        u = std::make_unique<Unrolled>(lower_bound_frames(w, dense, k));
    } catch (const InputError&) {
        return std::nullopt;
    }
    const Unrolled& frames = *u;  // on the heap: it stays where it is when `u` moves into the result
    QuickLower q{std::move(u), FrameLowerBounds(w, frames, hyperperiod(w) * k), 0, budget};
    AllTimeOptions few = o;
    few.lower_bound_simulations = std::max(1L, o.lower_bound_simulations / 10);
    take_lower(w, *q.u, k, budget.slice(1, 20), few, q.lower, q.simulations);
    return q;
}

// The answer of a run stopped before the full search of lower bounds: the quick round's.
AllTimeResult stopped_with(QuickLower quick, AllTimeResult& r) {
    quick.lower.fold_into(r.answers);
    r.simulations += quick.simulations;
    r.unrolled = std::move(*quick.u);
    return settled(quick.budget, std::move(r));
}

}  // namespace

AllTimeResult all_time_bounds(const Workload& w, const Budget& given, const AllTimeOptions& o) {
    const Budget budget = given.deadline ? given : given.capped(o.default_time);
    AllTimeOptions opt = o;  // with --timeout, the engines' step is bounded by it alone
    if (given.deadline && opt.search_cap.count() > 0) opt.search_cap = std::max(opt.search_cap, *budget.remaining());
    AllTimeResult r;
    r.answers = unknown_answers(w);
    r.hyperperiod = hyperperiod(w);
    if ((r.overload = find_overload(w))) {
        for (WcrtAnswer& a : r.answers)
            a.unknown_reason = r.overload->stream == w.ops[a.op].stream ? "no bound exists: " + r.overload->reason
                                                                        : "no bound: " + r.overload->reason;
        return r;
    }
    // A quick round of lower bounds first, on the frames the search takes without a closure:
    // a run stopped while the arguments run (SIGINT, --timeout, --max-memory) still shows
    // what was replayed. Used only when the run is stopped, so that a run that ends on its own
    // answers what the full search below finds.
    const Workload dense = densest(w);
    const int open_k = lower_bound_hyperperiods(dense, o);
    std::optional<QuickLower> quick = quick_lower(w, dense, open_k, budget, o);
    // Two thirds of the time to the upper bounds, the rest (and what they leave) to the lower.
    const Budget upper = budget.slice(2, 3);
    const bool pattern = pattern_gap(w).empty();
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
    const int searched = first ? first->k : open_k;
    // Stopped before the full search: the quick round's frames and bounds are the answer's.
    if (quick && budget.expired()) return stopped_with(std::move(*quick), r);
    Unrolled u = first ? std::move(first->unrolled) : lower_bound_frames(w, dense, searched);
    FrameLowerBounds lower(w, u, r.hyperperiod * searched);
    // The engines' witnesses, replayed by them and again here.
    if (first && first->searched) lower.offer_answers(first->searched->answers, budget);
    take_lower(w, u, searched, budget, o, lower, r.simulations);
    lower.fold_into(r.answers);
    // Stopped during it: the quick round's better bounds count too where its frames are these
    // (the same hyperperiods unrolled alike: no closure, or one without sporadic streams).
    if (quick && budget.expired() && searched == open_k && (!first || !has_sporadic_stream(w))) {
        quick->lower.fold_into(r.answers);
        r.simulations += quick->simulations;
    }
    r.unrolled = std::move(u);
    return settled(budget, std::move(r));
}

}  // namespace gpuwcrt
