#include "solver/frames/lower_bound_rounds.hpp"

#include <algorithm>
#include <limits>
#include <optional>

#include "model/frames/transforms.hpp"
#include "model/integer_time.hpp"
#include "solver/frames/phased_lower_bounds.hpp"

namespace gpuwcrt {
namespace {

// A simulation costs about one step per operation: the scenarios searched shrink as the
// frames grow, so that the search takes about the same time on every workload (its later
// scenarios seldom improve a bound).
long simulations_for(const Workload& w, const AllTimeOptions& o) {
    const long per_run = 30'000 / static_cast<long>(std::max<std::size_t>(1, w.ops.size()));
    return std::clamp(per_run, std::min(50L, o.lower_bound_simulations), o.lower_bound_simulations);
}

}  // namespace

Time unrolled_per_hyperperiod(const Workload& w) {
    const Time H = hyperperiod(w);
    Time per_hyperperiod = 0;
    for (const Operation& op : w.ops) per_hyperperiod += frames_per_hyperperiod(w.streams[op.stream], H);
    return per_hyperperiod;
}

LowerBoundHorizon lower_bound_horizon(const Workload& w, const AllTimeOptions& o) {
    constexpr int most_operations = 2000;
    const Time per_hyperperiod = unrolled_per_hyperperiod(w);
    if (per_hyperperiod <= most_operations) {
        int k = 1;
        while (k < o.max_hyperperiods && per_hyperperiod * (k + 1) <= most_operations) ++k;
        return {hyperperiods_of(w, k), hyperperiod(w) * k, k};
    }
    Time longest = 0;
    for (const Stream& s : w.streams)
        if (s.arrival.repeats()) longest = std::max<Time>(longest, s.arrival.period + s.arrival.offset);
    const auto until = [&w, &longest](int n) { return Horizon::up_to(longest * n, {w.source, 0, 0}); };
    const auto operations = [&w](const Horizon& h) {
        const std::vector<std::int64_t> count = frame_counts(w, h);
        std::int64_t n = 0;
        for (const Operation& op : w.ops) n += count[static_cast<std::size_t>(op.stream)];
        return n;
    };
    int n = 1;
    while (n < o.max_hyperperiods && operations(until(n + 1)) <= most_operations) ++n;
    return {until(n), longest * n, 0};
}

LowerBoundRounds::LowerBoundRounds(const Workload& w, const Unrolled& u, const Horizon& h, const AllTimeOptions& o)
    : w_(w), u_(u), o_(o) {
    bool jitter = false;
    for (const Stream& st : w.streams) jitter = jitter || st.arrival.jitter != 0;
    // Where `u` widens sporadic frames' windows for their phasings, the search first draws from
    // the densest ones, whose scenarios are u's with the same operations in the same order (its
    // windows' lower ends): drawn from u's, most would bring frames too close.
    std::vector<std::unique_ptr<Unrolled>> frames;
    frames.push_back(has_sporadic_stream(w) ? std::make_unique<Unrolled>(unroll(densest(w), h)) : nullptr);
    // Only with jitter are the frames without it another workload.
    if (jitter) frames.push_back(std::make_unique<Unrolled>(unroll(without_jitter(densest(w)), h)));
    for (std::unique_ptr<Unrolled>& f : frames) {
        const Workload* workload = f ? &f->workload : &u.workload;
        std::optional<IntegerTimes> times;
        try {
            times = integer_times(*workload);
        } catch (const InputError&) {
            phasings_ = false;  // times finer than integer ticks: no random scenarios to draw
            return;
        }
        auto s = std::make_unique<search::LowerBoundSearch>(*workload, *times, Policy::chooser, o.seed);
        searched_.push_back({std::move(f), workload, std::move(s), simulations_for(*workload, o)});
    }
}

void LowerBoundRounds::count_simulations(Searched& s) {
    simulations_ += s.search->simulations() - s.counted;
    s.counted = s.search->simulations();
}

bool LowerBoundRounds::advance(Searched& s, long long target, const Budget& search, const Budget& budget,
                               FrameLowerBounds& lower) {
    while (!answered()) {
        const long long done = s.search->simulations();
        // Without a stop rule one part, as the offers between parts would be of no use.
        const long long part = answered_ ? std::min(target, std::max(2 * done, done + 1)) : target;
        s.search->run_part(s.count, part, search);
        count_simulations(s);
        lower.offer_search(*s.search, budget);
        if (part >= target || search.expired() || s.search->simulations() == done) return answered();
    }
    return true;
}

void LowerBoundRounds::run_to(int tenths, const Budget& budget, FrameLowerBounds& lower) {
    const auto started = Budget::Clock::now();
    // Every search its share of each round: the one without jitter often finds the worst
    // frames first, and a run stopped early should have both.
    for (Searched& s : searched_) {
        if (budget.expired()) break;
        if (advance(s, 2 * static_cast<long long>(s.count) * tenths / 10, budget, budget, lower)) break;
    }
    spent_ += Budget::Clock::now() - started;
}

void LowerBoundRounds::finish(const Budget& budget, FrameLowerBounds& lower) {
    const auto started = Budget::Clock::now();
    for (std::size_t i = 0; i < searched_.size(); ++i) {
        // Three quarters of what is left to the searches, the rest to replaying what they found.
        const Budget part = budget.slice(3, 4 * static_cast<long long>(searched_.size() - i));
        if (advance(searched_[i], std::numeric_limits<long long>::max(), part, budget, lower)) return;
    }
    if (!phasings_ || answered()) return;
    // The phasings of sporadic streams: their best scenarios, carried over to `u`, in at most
    // half the time the searches took (at least 0.2 s).
    spent_ += Budget::Clock::now() - started;
    const auto half = std::max<Budget::Clock::duration>(spent_ / 2, std::chrono::milliseconds(200));
    const Budget phasing = budget.slice(3, 4).capped(std::chrono::duration_cast<std::chrono::milliseconds>(half));
    lower.offer_phasings(
        phased_candidates(w_, u_, phasing, simulations_for(u_.workload, o_) / 8, o_.seed, simulations_), budget);
}

}  // namespace gpuwcrt
