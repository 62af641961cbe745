#include "solver/frames/all_time.hpp"

#include <algorithm>
#include <functional>
#include <memory>

#include "bounds/frames/busy_window.hpp"
#include "bounds/frames/sliced_busy_window.hpp"
#include "bounds/frames/steady_state.hpp"
#include "bounds/interference/interference.hpp"
#include "model/frames/transforms.hpp"
#include "model/integer_time.hpp"
#include "model/issue_bounds.hpp"
#include "sim/search/lower_bounds.hpp"
#include "sim/simulate.hpp"
#include "solver/frames/frame_lower_bounds.hpp"
#include "solver/frames/lower_bound_rounds.hpp"
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
    Time idle_offset = 0;               // the GPU proven idle at k·H plus this (0 or the least offset)
};

// The least offset of the repeating streams: none of their frames is released in [kH, kH + it),
// so an idle GPU then faces the future it faced at 0 (docs/theory/all-time.md, fact 2).
Time least_repeating_offset(const Workload& w) {
    std::optional<Time> least;
    for (const Stream& s : w.streams)
        if (s.arrival.repeats() && (!least || s.arrival.offset < *least)) least = s.arrival.offset;
    return least.value_or(Time(0));
}

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
        c.idle_offset = least_repeating_offset(w);
        if (c.idle_offset > 0 && idle_by(c.bounds, H * k + c.idle_offset)) return c;
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

// The lower bounds searched from the start and between the upper-bound arguments, on the frames
// the search takes without a closure (`k` hyperperiods, sporadic streams at their densest
// releases): a round before the arguments and one after each, each another tenth of one search,
// so that a run stopped while the arguments run (SIGINT, --timeout, --max-memory) shows what
// was replayed so far, and a run that ends on its own finishes the same search.
class InterleavedLower {
public:
    // `answered`: whether the lower bounds found so far leave nothing for the rounds to change.
    InterleavedLower(const Workload& w, const Workload& dense, const LowerBoundHorizon& h, const Budget& budget,
                     const AllTimeOptions& o, const std::function<bool(const FrameLowerBounds&)>& answered)
        : horizon_(h), budget_(budget), upper_(budget) {
        try {
            frames_ = std::make_unique<Unrolled>(lower_bound_frames(w, dense, h.frames));
        } catch (const InputError&) {
            // The frames cannot be unrolled: the search after the arguments says why.
        }
        if (frames_) {
            lower_.emplace(w, *frames_, h.end);
            search_.emplace(w, *frames_, h.frames, o);
            search_->stop_when([this, answered] { return answered(*lower_); });
            // In at most a twentieth of the time, so that the arguments keep theirs on large
            // frames (the next round then goes on from where this one stopped).
            search_->run_to(++tenths_, budget.slice(1, 20), *lower_);
        }
        // Two thirds of the time to the upper bounds, the rest (and what they leave) to the lower.
        upper_ = budget.slice(2, 3);
    }

    bool has_frames() const { return frames_ != nullptr; }
    // k when the frames are k hyperperiods, else 0 (no closure's frames are these).
    int k() const { return horizon_.hyperperiods; }
    const LowerBoundHorizon& horizon() const { return horizon_; }
    // The arguments' budget: its deadline moved later by the time the later rounds took, which
    // is the lower bounds' share.
    Budget upper() const {
        Budget b = upper_;
        if (!b.deadline) return b;
        b.deadline = *b.deadline + moved_;
        if (budget_.deadline) b.deadline = std::min(*b.deadline, *budget_.deadline);
        return b;
    }
    // The next round, while these frames can be the answer's: a closure after other than k
    // hyperperiods brings frames of its own.
    void after_argument(const std::optional<Closure>& closure) {
        if (!has_frames() || (closure && closure->k != k()) || tenths_ >= last_round_tenths) return;
        const auto started = Budget::Clock::now();
        search_->run_to(++tenths_, budget_, *lower_);
        moved_ += Budget::Clock::now() - started;
    }
    // The rest of the search, after the engines' witnesses on these frames (if any).
    void finish(const std::optional<Closure>& closure) {
        if (closure && closure->searched) lower_->offer_answers(closure->searched->answers, budget_);
        search_->finish(budget_, *lower_);
    }
    // Whether what the rounds replayed is better than `other` for some operation: then theirs
    // is the answer of a run stopped while the search on other frames ran.
    bool better_than(const FrameLowerBounds& other, const std::vector<WcrtAnswer>& answers) const {
        std::vector<WcrtAnswer> ours = answers, theirs = answers;
        lower_->fold_into(ours);
        other.fold_into(theirs);
        for (std::size_t i = 0; i < ours.size(); ++i)
            if (ours[i].lower && (!theirs[i].lower || *theirs[i].lower < *ours[i].lower)) return true;
        return false;
    }
    // The answer with these frames' lower bounds.
    AllTimeResult into(AllTimeResult r) {
        lower_->fold_into(r.answers);
        r.simulations += search_->simulations();
        r.unrolled = std::move(*frames_);
        return r;
    }

private:
    static constexpr int last_round_tenths = 6;  // the first and one after each of five arguments

    LowerBoundHorizon horizon_;
    Budget budget_, upper_;
    std::unique_ptr<Unrolled> frames_;  // on the heap: lower_ and search_ refer to it
    std::optional<FrameLowerBounds> lower_;
    std::optional<LowerBoundRounds> search_;
    int tenths_ = 0;
    Budget::Clock::duration moved_{};
};

}  // namespace

namespace {

// Whether no further lower bound can change an answer, each operation's best replayed frame
// counted: every operation settled as `o.settled` says; without it, exact (a lower bound never
// passes a proven upper bound), or under a proven overload, where no upper bound exists, a
// replayed frame past the operation's deadline, or any replayed frame when it has none: its
// WCRT is proven unbounded, and a longer search would only find a later frame of a backlog that
// grows for ever (docs/decisions/0036-lower-bounds-until-answered.md).
bool all_answered(const Workload& w, const std::vector<WcrtAnswer>& answers, const FrameLowerBounds& lower,
                  const AllTimeOptions& o, bool overloaded) {
    for (std::size_t i = 0; i < answers.size(); ++i) {
        WcrtAnswer a;  // the bounds alone: a copy of the witnesses would cost more than the check
        a.op = answers[i].op;
        a.upper = answers[i].upper;
        a.lower = answers[i].lower;
        const std::optional<Time>& found = lower.file_best()[i];
        if (found && (!a.lower || *a.lower < *found)) a.lower = found;
        if (o.settled) {
            if (!o.settled(a)) return false;
        } else if (!a.lower) {
            return false;
        } else if (overloaded) {
            const std::optional<Time>& deadline = w.ops[i].deadline;
            if (deadline && *a.lower <= *deadline) return false;
        } else if (!a.upper || *a.upper != *a.lower) {
            return false;
        }
    }
    return true;
}

// Closures and the steady state, on releases that repeat every hyperperiod: each operation's
// least bound, and the closure found, if any (its frames are searched for lower bounds). A
// round of lower bounds after each argument that ran.
std::optional<Closure> bound_repeating(const Workload& w, InterleavedLower& lower, const AllTimeOptions& opt,
                                       AllTimeResult& r) {
    std::vector<int> identity(w.ops.size());
    for (std::size_t i = 0; i < identity.size(); ++i) identity[i] = static_cast<int>(i);
    // First a closure after one hyperperiod (the engines tighten it); else the steady state,
    // which needs no idle instant; else closures after more hyperperiods.
    AllTimeOptions one = opt;
    one.max_hyperperiods = 1;
    lower.upper().counters().start_phase("all time: is the GPU idle after one hyperperiod");
    std::optional<Closure> first = close(w, r.hyperperiod, lower.upper(), one);
    lower.after_argument(first);
    lower.upper().counters().start_phase("all time: a steady state of the bounds");
    const std::optional<SteadyBounds> steady = first ? std::nullopt : try_steady(w, lower.upper(), opt, r);
    if (!first) lower.after_argument(first);
    lower.upper().counters().start_phase("all time: is the GPU idle after 2 to 8 hyperperiods");
    if (!first && !steady) {
        first = close(w, r.hyperperiod, lower.upper(), opt, 2);
        lower.after_argument(first);
    }
    const Budget upper = lower.upper();
    bool bounded = first.has_value();
    if (first) {
        r.closed_after = first->k;
        r.closed_offset = first->idle_offset;
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

// The busy window (bounds/frames/busy_window.hpp): each operation keeps the least of its bounds,
// which are returned (none when it gives none).
std::vector<std::optional<Time>> take_busy_window(const Workload& w, const Budget& upper, const AllTimeOptions& o,
                                                  AllTimeResult& r) {
    upper.counters().start_phase("all time: a busy window");
    BusyWindowOptions bo;
    bo.mutation = o.mutation;
    const std::optional<BusyWindowBounds> b = busy_window_bounds(w, upper, r.busy_why, bo);
    if (!b) return std::vector<std::optional<Time>>(w.ops.size());
    r.busy_window = b->window.length;
    keep_least_upper(w, b->upper, Provenance::busy_window, r.answers);
    return b->upper;
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

// Under time slices only the busy window of each context bounds (docs/theory/all-time.md,
// "Time-sliced contexts"): the other arguments rest on analyses that know no slices.
// `r` by reference: the lower bounds' stop rule reads its answers until the search ends.
AllTimeResult sliced_bounds(const Workload& w, const Budget& budget, const AllTimeOptions& o, AllTimeResult& r,
                            InterleavedLower& open) {
    budget.counters().start_phase("all time: a busy window per context under time slices");
    const std::optional<SlicedBusyWindowBounds> b = sliced_busy_window_bounds(w, r.busy_why, o.sliced_mutation);
    if (b) {
        r.context_windows = b->windows;
        keep_least_upper(w, b->upper, Provenance::sliced_busy_window, r.answers);
    }
    for (WcrtAnswer& a : r.answers)
        if (!a.upper)
            a.unknown_reason = "no busy period of its context was proven to end within a bound (" + r.busy_why + ")";
    // The lower bounds: frames simulated with their slices, each replayed.
    budget.counters().start_phase("all time: lower bounds from replayed frames");
    if (!open.has_frames()) return settled(budget, std::move(r));
    if (!budget.expired()) open.finish(std::nullopt);
    return settled(budget, open.into(std::move(r)));
}

// The upper-bound arguments without time slices: each operation keeps the least of its bounds;
// the closure found, if any (its frames are searched for lower bounds).
std::optional<Closure> bound_unsliced(const Workload& w, bool pattern, InterleavedLower& open, const AllTimeOptions& o,
                                      AllTimeResult& r) {
    const auto all_bounded = [&r] {
        for (const WcrtAnswer& a : r.answers)
            if (!a.upper) return false;
        return true;
    };
    // The busy window's cost grows with the busy window, the other arguments' with the
    // hyperperiod: on a long hyperperiod it goes first, and they run after it (often tighter)
    // only up to o.hyperperiod_arguments_up_to operations, or where it leaves an operation
    // unbounded (docs/theory/all-time.md, "A long hyperperiod").
    const Time per_hyperperiod = unrolled_per_hyperperiod(w);
    const bool window_first = !pattern || per_hyperperiod > o.busy_window_first_above;
    std::vector<std::optional<Time>> by_window;
    if (window_first) {
        by_window = take_busy_window(w, open.upper(), o, r);
        open.after_argument(std::nullopt);
    }
    const bool unroll_hyperperiods =
        pattern && (!window_first || !all_bounded() || per_hyperperiod <= o.hyperperiod_arguments_up_to);
    // A closure joins its frames' bounds into the answers, which must start without one; a closure
    // that bounds no later frame forgets every bound. The busy window's are met in afterwards.
    if (unroll_hyperperiods)
        for (WcrtAnswer& a : r.answers) a.upper.reset(), a.upper_by = Provenance::none;
    std::optional<Closure> first = unroll_hyperperiods ? bound_repeating(w, open, o, r) : std::nullopt;
    if (window_first) keep_least_upper(w, by_window, Provenance::busy_window, r.answers);
    if (pattern && !all_bounded()) {
        take_exploration(w, open.upper(), o, r);
        open.after_argument(first);
    }
    if (!all_bounded() && !window_first) {
        take_busy_window(w, open.upper(), o, r);
        open.after_argument(first);
    }
    return first;
}

}  // namespace

AllTimeResult all_time_bounds(const Workload& w, const Budget& given, const AllTimeOptions& o) {
    const Budget budget = given.deadline ? given : given.capped(o.default_time);
    AllTimeOptions opt = o;  // with --timeout, the engines' step is bounded by it alone
    if (given.deadline && opt.search_cap.count() > 0) opt.search_cap = std::max(opt.search_cap, *budget.remaining());
    AllTimeResult r;
    r.answers = unknown_answers(w);
    r.hyperperiod = hyperperiod(w);
    r.overload = find_overload(w);
    if (r.overload)
        for (WcrtAnswer& a : r.answers)
            a.unknown_reason = r.overload->stream == w.ops[a.op].stream ? "no bound exists: " + r.overload->reason
                                                                        : "no bound: " + r.overload->reason;
    // Without a closure, lower bounds come from the frames of several hyperperiods, where a
    // backlog has had time to build up; sporadic streams at their densest releases. Searched in
    // rounds from the start, between the upper-bound arguments.
    const Workload dense = densest(w);
    const auto answered = [&w, &r, &o](const FrameLowerBounds& lower) {
        return all_answered(w, r.answers, lower, o, r.overload.has_value());
    };
    InterleavedLower open(w, dense, lower_bound_horizon(dense, o), budget, o, answered);
    // Overloaded: no upper bound exists, but the frames that miss their deadlines are replayed
    // all the same, so that a deadline a real frame misses is refuted.
    if (r.overload) {
        budget.counters().start_phase("all time: lower bounds from replayed frames");
        if (!open.has_frames()) return settled(budget, std::move(r));
        if (!budget.expired()) open.finish(std::nullopt);
        return settled(budget, open.into(std::move(r)));
    }
    if (w.sliced()) return sliced_bounds(w, budget, o, r, open);
    const bool pattern = pattern_gap(w).empty();
    std::optional<Closure> first = bound_unsliced(w, pattern, open, opt, r);
    for (WcrtAnswer& a : r.answers)
        if (!a.upper) a.unknown_reason = no_bound_reason(open.upper(), r, pattern, o.max_hyperperiods);
    budget.counters().start_phase("all time: lower bounds from replayed frames");
    // Stopped, or the answer's frames are the rounds': what they replayed, the search finished.
    if (open.has_frames() && (budget.expired() || !first || first->k == open.k())) {
        if (!budget.expired()) open.finish(first);
        return settled(budget, open.into(std::move(r)));
    }
    // A closure after k hyperperiods: the lower bounds of its frames, searched anew.
    const LowerBoundHorizon searched =
        first ? LowerBoundHorizon{hyperperiods_of(w, first->k), r.hyperperiod * first->k, first->k} : open.horizon();
    Unrolled u = first ? std::move(first->unrolled) : lower_bound_frames(w, dense, searched.frames);
    FrameLowerBounds lower(w, u, searched.end);
    // The engines' witnesses, replayed by them and again here.
    if (first && first->searched) lower.offer_answers(first->searched->answers, budget);
    LowerBoundRounds search(w, u, searched.frames, o);
    search.stop_when([&answered, &lower] { return answered(lower); });
    search.finish(budget, lower);
    // Stopped during that search: the rounds' bounds where they are better.
    if (budget.expired() && open.has_frames() && open.better_than(lower, r.answers))
        return settled(budget, open.into(std::move(r)));
    lower.fold_into(r.answers);
    r.simulations += search.simulations();
    r.unrolled = std::move(u);
    return settled(budget, std::move(r));
}

}  // namespace gpuwcrt
