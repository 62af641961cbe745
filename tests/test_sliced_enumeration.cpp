// The all-time engine under time-sliced contexts (solver/frames/all_time.hpp, docs/theory/all-time.md,
// "Time-sliced contexts") against enumeration of small sliced workloads: every scenario of two
// hyperperiods on a grid — each frame released at the start, just after it, in the middle or at
// the end of its jitter window, each block of a ranged operation at its least, middle or greatest
// time, every launch order of the operations issued together — simulated with the slices. The
// engine's upper bound must be at least every enumerated response of every frame; its lower
// bound must replay, stay below its upper bound and be reached by the enumeration.
#include <catch2/catch.hpp>

#include <functional>
#include <random>

#include "model/frames/horizon.hpp"
#include "model/frames/unroll.hpp"
#include "model/frames/validate_frames.hpp"
#include "model/generate/random_workload.hpp"
#include "model/validate.hpp"
#include "sim/simulate.hpp"
#include "sim/witness.hpp"
#include "solver/block/enumerate/enumerate.hpp"
#include "solver/frames/all_time.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

// 2–4 streams of 1–3 operations (kernels, some copies, some after_stream_idle, sometimes a
// high-priority stream) on one SM, dealt to 2 or 3 contexts, so that a context has several
// streams when there are more streams than contexts; slices 1–3, a switch of 0 or 1; periodic,
// periods 16 or 32 (one odd seed in two `heavy`: 3, 4 or 6, mostly overloaded), offsets 0–3,
// jitter 1 or 2 on one stream in half the seeds. Even seeds have block-time ranges, and kernels
// of one block (each block's time is a choice of the enumeration), odd ones up to two blocks.
Workload enumerable_sliced_workload(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto pick = [&](std::uint64_t n) { return static_cast<int>(rng() % n); };
    const int streams = 2 + pick(3);
    const RandomWorkloadSpec spec{.kernels = streams + pick(static_cast<std::uint64_t>(streams) + 1),
                                  .streams = streams,
                                  .threads = {512, 1024},
                                  .max_blocks = seed % 2 == 0 ? 1 : 2,
                                  .max_block_time = 2,
                                  .sms = 1,
                                  .copy_percent = 10,
                                  .high_priority_streams = pick(4) == 0 ? 1 : 0,
                                  .interval_percent = seed % 2 == 0 ? 40 : 0,
                                  .after_idle_percent = 15};
    Workload w = random_workload(spec, seed * 7 + 1);
    const int contexts = std::min<int>(2 + pick(2), static_cast<int>(w.streams.size()));
    for (int c = 0; c < contexts; ++c)
        w.contexts.push_back(GpuContext{"ctx" + std::to_string(c), Time(1 + pick(3)), {w.source, 0, 0}});
    w.platform.context_switch = pick(2);
    const bool heavy = seed % 4 == 1;
    const Time light[] = {16, 32}, dense[] = {3, 4, 6};
    const std::size_t jittered = rng() % (2 * w.streams.size());  // none half the time
    for (std::size_t s = 0; s < w.streams.size(); ++s) {
        w.streams[s].context = static_cast<int>(s) % contexts;
        Arrival& a = w.streams[s].arrival;
        a.kind = Arrival::Kind::periodic;
        a.period = heavy ? dense[pick(3)] : light[pick(2)];
        a.jitter = s == jittered ? Time(pick(2) + 1) : Time(0);
        a.offset = pick(4);
    }
    validate_workload(w);
    validate_frames(w);
    return w;
}

// Counts up a mixed-radix number; false once it wraps around to zero.
bool next_digits(std::vector<std::size_t>& digit, const std::vector<std::size_t>& radix) {
    for (std::size_t i = 0; i < digit.size(); ++i) {
        if (++digit[i] < radix[i]) return true;
        digit[i] = 0;
    }
    return false;
}

// Least, middle and greatest value of a range (one value when it is a point).
std::vector<Time> ends_and_middle(const Time& lo, const Time& hi) {
    if (lo == hi) return {lo};
    return {lo, (lo + hi) / 2, hi};
}

// Where in its jitter window a frame is released: at the start, just after it, in the middle and
// at the end. Just after matters under slices: a context pending at the instant a slice ends
// gets the next turn (issues come before the hand-over), an instant later it waits a whole
// round, so the worst response is approached from just after an instant of the integer grid, not
// attained on it.
std::vector<Time> release_delays(const Time& jitter) {
    if (jitter == 0) return {Time(0)};
    return {Time(0), Time(1, 16), jitter / 2, jitter};
}

struct Enumerated {
    std::vector<std::optional<Time>> worst;  // per operation of the file, over its frames
    long scenarios = 0;
    bool complete = true;  // false: more than the cap of scenarios
};

// Every scenario of the grid over the frames released in `hyperperiods` hyperperiods, at most
// `cap` of them; with `count_only` none is simulated (a workload over the cap costs no simulation).
Enumerated enumerate_sliced(const Workload& w, int hyperperiods, long cap, bool count_only) {
    Enumerated e;
    e.worst.resize(w.ops.size());
    const Time horizon = hyperperiod(w) * hyperperiods;
    std::vector<std::int64_t> frames(w.streams.size(), 0);
    std::vector<std::pair<int, std::int64_t>> frame_of;  // (stream, k) per release digit
    std::vector<std::size_t> release_radix;
    for (std::size_t s = 0; s < w.streams.size(); ++s) {
        const Arrival& a = w.streams[s].arrival;
        for (; a.offset + a.period * frames[s] < horizon; ++frames[s]) {
            frame_of.emplace_back(static_cast<int>(s), frames[s]);
            release_radix.push_back(release_delays(a.jitter).size());
        }
    }
    std::vector<std::size_t> release(release_radix.size(), 0);
    do {
        const auto at = [&](int s, std::int64_t k) {
            std::size_t d = 0;
            while (frame_of[d] != std::pair<int, std::int64_t>{s, k}) ++d;
            const Arrival& a = w.streams[s].arrival;
            const Time t = a.release(k).lo + release_delays(a.jitter)[release[d]];
            return TimeRange{t, t};
        };
        const Unrolled u = unroll_windows(w, frames, at, {"test", 0, 0});
        std::vector<std::size_t> time_radix, first_digit;  // a digit per block of each ranged operation
        for (const Operation& op : u.workload.ops) {
            first_digit.push_back(time_radix.size());
            if (!op.time.is_point()) time_radix.resize(time_radix.size() + (op.is_kernel() ? op.blocks : 1), 3);
        }
        std::vector<std::size_t> times(time_radix.size(), 0);
        do {
            Scenario base;
            base.block_time = [&](int op, std::int64_t block) {
                const TimeRange& r = u.workload.ops[static_cast<std::size_t>(op)].time;
                if (r.is_point()) return r.hi;
                return ends_and_middle(r.lo, r.hi)[times[first_digit[static_cast<std::size_t>(op)] + block]];
            };
            for_each_launch_order(u.workload, [&](const std::vector<long>& rank) {
                if (++e.scenarios > cap) return e.complete = false;
                if (count_only) return true;
                Scenario sc = base;
                sc.rank = rank;
                const Schedule s = simulate(u.workload, sc, BlockRecord::dropped);
                for (std::size_t i = 0; i < u.workload.ops.size(); ++i) {
                    std::optional<Time>& worst = e.worst[static_cast<std::size_t>(u.origin[i].op)];
                    const Time r = s.response(static_cast<int>(i));
                    if (!worst || r > *worst) worst = r;
                }
                return true;
            });
        } while (e.complete && next_digits(times, time_radix));
    } while (e.complete && next_digits(release, release_radix));
    return e;
}

// Which features the compared workloads had, and what the engine answered.
struct SlicedEnumerationCounts {
    int compared = 0, bounded = 0, several_streams = 0, ranged = 0, jittered = 0, overloaded = 0, unbounded = 0,
        exact = 0, too_many = 0, lower_reached = 0, with_lower = 0;
};

// The engine's answers on workload `seed` against its enumeration (at most `cap` scenarios).
void compare_with_enumeration(std::uint64_t seed, long cap, SlicedEnumerationCounts& n) {
    INFO("seed " << seed);
    const Workload w = enumerable_sliced_workload(seed);
    AllTimeOptions o;
    o.lower_bound_simulations = 20;
    o.max_hyperperiods = 2;                                   // the lower bounds' frames: those the enumeration covers
    const AllTimeResult r = all_time_bounds(w, Budget(), o);  // a replayed frame above a bound throws
    for (const WcrtAnswer& a : r.answers) {
        if (!a.lower) continue;
        REQUIRE(r.unrolled);
        const std::optional<int> at = witnessed_operation(r, a.op, a.frame);
        REQUIRE(at);
        const Workload& u = r.unrolled->workload;
        CHECK(simulate(u, witness_scenario(u, *a.witness)).response(*at) == *a.lower);
        if (a.upper) CHECK(*a.lower <= *a.upper);
    }
    if (r.overload) {
        ++n.overloaded;
        return;
    }
    const bool bounded =
        std::all_of(r.answers.begin(), r.answers.end(), [](const WcrtAnswer& a) { return a.upper.has_value(); });
    if (!bounded) ++n.unbounded;
    const bool any_bound =
        std::any_of(r.answers.begin(), r.answers.end(), [](const WcrtAnswer& a) { return a.upper.has_value(); });
    if (!enumerate_sliced(w, 2, cap, true).complete) {
        ++n.too_many;
        return;
    }
    const Enumerated e = enumerate_sliced(w, 2, cap, false);
    ++n.compared;
    n.bounded += any_bound ? 1 : 0;
    for (const WcrtAnswer& a : r.answers) {
        const std::optional<Time>& seen = e.worst[static_cast<std::size_t>(a.op)];
        INFO(w.ops[a.op].name << " enumerated " << (seen ? human_string(*seen) : "-"));
        if (a.upper && seen) CHECK(*seen <= *a.upper);
        // The engine's replayed frames may be released off this grid, where under slices a
        // response can exceed every one on it: counted (check_coverage).
        if (a.lower && seen && *a.lower <= *seen) ++n.lower_reached;
        if (a.lower) ++n.with_lower;
        if (a.status == WcrtStatus::exact) ++n.exact;
    }
    n.several_streams += w.streams.size() > w.contexts.size() ? 1 : 0;
    n.ranged += std::any_of(w.ops.begin(), w.ops.end(), [](const Operation& op) { return !op.time.is_point(); });
    n.jittered += std::any_of(w.streams.begin(), w.streams.end(), [](const Stream& s) { return s.arrival.jitter > 0; });
}

// That the seeds drew what the comparison is for: `min` compared workloads, and among the
// compared ones contexts of several streams, ranges and jitter, each in at least min / 5; some
// workloads proven overloaded or left without a bound; the engine's lower bounds reached.
void check_coverage(const SlicedEnumerationCounts& n, int min) {
    INFO("compared " << n.compared << " (bounded " << n.bounded << "), several streams " << n.several_streams
                     << ", ranged " << n.ranged << ", jittered " << n.jittered << ", overloaded " << n.overloaded
                     << ", unbounded " << n.unbounded << ", exact " << n.exact << ", lower bounds reached "
                     << n.lower_reached << " of " << n.with_lower << ", over the scenario cap " << n.too_many);
    CHECK(n.compared >= min);
    CHECK(n.bounded >= min * 3 / 4);
    CHECK(n.several_streams >= min / 5);
    CHECK(n.ranged >= min / 5);
    CHECK(n.jittered >= min / 5);
    CHECK(n.overloaded >= min / 5);
    CHECK(n.unbounded >= min / 5);
    // The enumeration is no weaker than the engine's own search for lower bounds.
    CHECK(n.lower_reached >= n.with_lower * 9 / 10);
}

}  // namespace

TEST_CASE("sliced all-time engine: bounds hold against enumeration of small sliced workloads",
          "[frames][slices][enumerate]") {
    SlicedEnumerationCounts n;
    for (std::uint64_t seed = 1; seed <= test::seeded(48); ++seed) compare_with_enumeration(seed, 300, n);
    if (!test::sanitized) check_coverage(n, 15);
}

TEST_CASE("sliced all-time engine: bounds hold against enumeration, many seeds", "[frames][slices][enumerate][slow]") {
    SlicedEnumerationCounts n;
    for (std::uint64_t seed = 1000; seed < 1200; ++seed) compare_with_enumeration(seed, 3000, n);
    check_coverage(n, 80);
}
