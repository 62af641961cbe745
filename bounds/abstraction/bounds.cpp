#include "bounds/abstraction/bounds.hpp"

#include <new>
#include <optional>
#include <stdexcept>

#include "bounds/engine_options.hpp"
#include "encode/block/block_problem.hpp"
#include "bounds/abstraction/beam.hpp"
#include "bounds/abstraction/explorer.hpp"
#include "bounds/abstraction/refine.hpp"
#include "bounds/interference/chain_op.hpp"
#include "bounds/interference/interference.hpp"
#include "model/issue_bounds.hpp"
#include "sim/search/lower_bounds.hpp"

namespace gpuwcrt {
namespace {

using Clock = std::chrono::steady_clock;

std::chrono::milliseconds since(Clock::time_point t0) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0);
}

// Per operation: the replayed lower bound and the proven upper bound; exact iff they meet.
// The interference bound (bounds/interference/) where it is below the abstraction's.
std::vector<WcrtAnswer> answers(const Workload& w, const abstraction::Problem& p,
                                const std::vector<std::optional<std::int64_t>>& upper,
                                const search::LowerBoundSearch& lower, const InterferenceBounds& interference,
                                const std::string& reason, bool explored) {
    const int n = static_cast<int>(w.ops.size());
    // No round finished (too many keys for the budget, e.g. 2^32 at n = 32): the busy-time
    // bound of docs/theory/encoding.md is still proven for workloads in the SMT engine's scope.
    std::vector<std::optional<Time>> busy(n);
    if (!explored) {
        try {
            const BlockProblem bp = make_block_problem(w);
            for (int op = 0; op < n; ++op)
                if (const std::int64_t k = bp.index_of_op(op); k >= 0)
                    busy[op] = bp.response_upper_bound(static_cast<int>(k));
        } catch (const InputError&) {
            // outside that scope: no upper bound at all
        }
    }
    std::vector<WcrtAnswer> out(n);
    for (int op = 0; op < n; ++op) {
        WcrtAnswer& a = out[op];
        a.op = op;
        WcrtAnswer found;  // named by the engine's adapter (solver/block/engines/)
        found.op = op;
        if (lower.best()[op]) {
            found.witness = lower.witness(op);  // replayed
            found.lower = lower.best()[op];
        }
        if (upper[op]) {
            found.upper = p.times.to_time(*upper[op]);
        } else if (busy[op]) {
            found.upper = busy[op];
            found.upper_by = Provenance::busy_time;
        }
        absorb(w, a, found, Provenance::none);
        if (const auto& i = interference.response[op]) {
            WcrtAnswer bound;
            bound.op = op;
            bound.upper = i;
            absorb(w, a, bound, Provenance::interference);
        }
        if (a.status != WcrtStatus::exact) a.unknown_reason = !reason.empty() ? reason : "gap";
    }
    return out;
}

using Uppers = std::vector<std::optional<std::int64_t>>;

// UB > LB, or either missing.
bool is_open(const abstraction::Problem& p, const Uppers& upper, const search::LowerBoundSearch& lower,
             std::size_t op) {
    return !upper[op] || !lower.best()[op] || p.times.to_time(*upper[op]) != *lower.best()[op];
}

int open_operations(const abstraction::Problem& p, const Uppers& upper, const search::LowerBoundSearch& lower) {
    int open = 0;
    for (std::size_t op = 0; op < upper.size(); ++op) open += is_open(p, upper, lower, op);
    return open;
}

// Max over operations of UB / LB; none while some operation lacks either (or has LB 0).
std::optional<Time> max_ratio(const abstraction::Problem& p, const Uppers& upper,
                              const search::LowerBoundSearch& lower) {
    std::optional<Time> r = Time(1);
    for (std::size_t op = 0; op < upper.size() && r; ++op) {
        if (!upper[op] || !lower.best()[op] || *lower.best()[op] <= 0) r.reset();
        else r = std::max(*r, p.times.to_time(*upper[op]) / *lower.best()[op]);
    }
    return r;
}

// Random scenarios, then the beam with widths `first_width`, 4·first_width, … up to
// `last_width` on both ends of every interval, within `share`.
void lower_phase(const Workload& w, search::LowerBoundSearch& lower, long simulations, int first_width, int last_width,
                 const Budget& share) {
    share.counters().phase = "bounds: lower-bound scenarios and beam";
    lower.run(simulations, share);
    for (int width = first_width; width <= last_width; width *= 4)
        for (bool upper_ends : {true, false}) {
            if (share.expired()) break;
            const auto c = abstraction::beam_candidates(w, upper_ends, width, share);
            for (std::size_t op = 0; op < w.ops.size(); ++op)
                if (c[op]) lower.offer(static_cast<int>(op), c[op]->response, c[op]->witness);
        }
}

// The rounds' K and placement cap: the probe round first (when its cap is below partial_cap),
// then K times growth and the cap times partial_growth per round, up to max_partial_cap.
struct RoundSchedule {
    const BoundsOptions& b;
    bool probe = b.probe_partial_cap < b.partial_cap;
    int k = b.initial_states;
    int cap = probe ? b.probe_partial_cap : b.partial_cap;

    int next_k() const { return probe ? k : k * b.growth; }
    void advance() {
        k = next_k();
        cap = probe ? b.partial_cap : std::max(cap, std::min(b.max_partial_cap, cap * b.partial_growth));
        probe = false;
    }
};

// Targeted refinement: raises K to `k` on the keys that lead to an open operation.
long long refine_targeted(const abstraction::Problem& p, const abstraction::ExploreResult& e, const Uppers& upper,
                          const search::LowerBoundSearch& lower, int k, const BoundsOptions& b,
                          abstraction::KeyCaps& caps) {
    std::vector<char> open(upper.size());
    for (std::size_t op = 0; op < upper.size(); ++op) open[op] = is_open(p, upper, lower, op);
    return abstraction::refine_caps(e.graph, open, lower.best(), p.times, k, b.targeted_depth, caps);
}

// docs/theory/abstraction.md, "Completion caps": the interference bound's completion instants in ticks.
void cap_completions(abstraction::Problem& p, const InterferenceBounds& interference) {
    for (std::size_t op = 0; op < p.done_cap.size(); ++op)
        if (const auto& d = interference.done[op])
            p.done_cap[op] = interference::ceil_ticks(*d * p.times.scale, abstraction::never);
}

// Above max_explored_operations (BoundsOptions: why) the upper bounds are the interference bound's.
BoundsResult beyond_abstraction(const Workload& w, const Budget& budget, const BoundsOptions& b) {
    const auto t0 = Clock::now();
    BoundsResult res;
    res.steps.push_back("bounds: no abstraction and no lower-bound search: they run on at most " +
                        std::to_string(b.max_explored_operations) + " operations and this workload has " +
                        std::to_string(w.ops.size()) + "; upper bounds from the interference bound");
    InterferenceBounds interference;
    interference.response.resize(w.ops.size());
    budget.counters().phase = "bounds: interference bound";
    if (b.interference_beyond) interference = interference_bounds(w, budget);
    res.wcrt.resize(w.ops.size());
    const std::vector<IssueBounds<Time>> issue = issue_bounds(w);
    for (std::size_t op = 0; op < w.ops.size(); ++op) {
        WcrtAnswer& a = res.wcrt[op];
        a.op = static_cast<int>(op);
        WcrtAnswer bound;
        bound.op = a.op;
        bound.upper = interference.response[op];
        // An operation the sweeps did not reach before the budget ended completes by its upper
        // completion end all the same (the horizon at the least).
        if (!bound.upper && op < interference.done.size() && interference.done[op])
            bound.upper = *interference.done[op] - issue[op].lo;
        if (bound.upper) absorb(w, a, bound, Provenance::interference);
        a.unknown_reason = interference.stopped ? "timeout" : "gap";
    }
    res.stats.elapsed = since(t0);
    return res;
}

}  // namespace

BoundsResult abstraction_bounds(const Workload& w, const EngineOptions& o, const Budget& budget, const BoundsOptions& b,
                                const BoundsHooks& hooks) {
    if (w.ops.size() > static_cast<std::size_t>(b.max_explored_operations)) return beyond_abstraction(w, budget, b);
    const auto t0 = Clock::now();
    // Exploration stops 1/32 of the budget early: freeing a cut level's states (gigabytes on
    // large workloads) can take over a second past the deadline.
    const Budget explore_budget = budget.slice(31, 32);
    // The first lower-bound phase (random scenarios, then the beam) gets at most a quarter.
    const Budget lb_budget = budget.slice(1, 4);
    abstraction::Problem mutable_problem(w);
    mutable_problem.mutation = b.mutation;
    const abstraction::Problem& p = mutable_problem;

    const int n = static_cast<int>(w.ops.size());
    BoundsResult res;
    Uppers upper(n);
    search::LowerBoundSearch lower(w, p.times, o.policy, b.seed);
    std::string reason;
    auto open_count = [&] { return open_operations(p, upper, lower); };
    const InterferenceBounds interference = interference_bounds(w, budget.slice(1, 8));
    if (b.completion_caps) cap_completions(mutable_problem, interference);
    auto settled = [&] {
        return open_count() == 0 || (hooks.enough && hooks.enough(answers(w, p, upper, lower, interference, "", true)));
    };
    RunCounters& counters = budget.counters();
    bool lower_phase_done = !hooks.explore_first;
    try {
        if (hooks.explore_first)
            lower_phase(w, lower, b.lower_bound_simulations / 8, 1, 1, lb_budget);              // a first witness each
        else lower_phase(w, lower, b.lower_bound_simulations, 1, b.max_beam_width, lb_budget);  // at most a quarter
        abstraction::KeyCaps caps;  // targeted: K of the keys that lead to an open operation
        // No round when the interference bound alone already settles the question (certify).
        for (RoundSchedule schedule{b}; !(hooks.enough && res.rounds.empty() && settled()); schedule.advance()) {
            const int k = schedule.k;
            if (!lower_phase_done && !res.rounds.empty()) {  // the first round did not settle it
                lower_phase(w, lower, b.lower_bound_simulations, 4, b.max_beam_width, budget.slice(1, 4));
                lower_phase_done = true;
                if (settled()) break;
            }
            const auto r0 = Clock::now();
            abstraction::ExploreOptions eo{b.targeted ? b.initial_states : k, schedule.cap};
            eo.caps = b.targeted ? &caps : nullptr;
            eo.record_edges = b.targeted;
            eo.shift_merge = b.shift_merge;
            counters.phase = "bounds: abstraction";
            // Explore-first: a first round that does not finish leaves a quarter to the lower bounds.
            const Budget round_budget = lower_phase_done ? explore_budget : budget.slice(3, 4);
            abstraction::ExploreResult e = abstraction::explore(p, eo, round_budget);
            BoundsRound round{k, e.complete, e.states, e.edges, e.merges, since(r0), 0, 0, std::nullopt};
            round.partial_cap = eo.partial_cap;
            if (e.complete)
                for (int op = 0; op < n; ++op)
                    if (!upper[op] || *e.upper[op] < *upper[op]) upper[op] = e.upper[op];
            round.open_after = open_count();
            round.max_ratio = max_ratio(p, upper, lower);
            res.rounds.push_back(round);
            res.stats.abstract_states += e.states;
            if (hooks.on_round) hooks.on_round(round);
            if (!e.complete) {
                reason = to_string(e.out_of_memory ? StopReason::memory : StopReason::timeout);
                break;
            }
            if (k >= b.max_states || settled()) break;
            if (lower_phase_done) {
                counters.phase = "bounds: lower-bound scenarios";
                lower.run(b.lower_bound_simulations / 2, explore_budget);  // maybe a gap closes from below
                if (open_count() == 0) break;
            }
            if (b.targeted)
                res.rounds.back().refined_keys = refine_targeted(p, e, upper, lower, schedule.next_k(), b, caps);
        }
        if (!lower_phase_done && !settled())
            lower_phase(w, lower, b.lower_bound_simulations, 4, b.max_beam_width, explore_budget);
    } catch (const std::bad_alloc&) {
        reason = to_string(StopReason::memory);
    }
    res.stats.scenarios = lower.simulations();
    res.wcrt = answers(w, p, upper, lower, interference, reason, !res.rounds.empty() && res.rounds.front().complete);
    res.stats.elapsed = since(t0);
    return res;
}

}  // namespace gpuwcrt
