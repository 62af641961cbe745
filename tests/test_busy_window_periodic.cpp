// The busy window on periodic streams (docs/theory/all-time.md, "A long hyperperiod"): its
// bounds against simulated periodic releases over many hyperperiods (offsets below and beyond
// a period, jitter beyond a period, releases at the ends and middles of their windows), the
// mutations of its own steps caught there, and the all-time engine taking it first on a long
// hyperperiod, its lower bounds searched on frames that do not grow with the hyperperiod.
#include <catch2/catch.hpp>

#include <functional>
#include <random>

#include "bounds/frames/busy_window.hpp"
#include "model/frames/transforms.hpp"
#include "model/frames/validate_frames.hpp"
#include "model/generate/random_workload.hpp"
#include "model/validate.hpp"
#include "solver/frames/all_time.hpp"
#include "solver/frames/lower_bound_rounds.hpp"
#include "drawn_releases.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

// 2–3 periodic streams (periods 12, 16 or 24; `heavy`: 6, 8 or 12), offsets 0, half a period
// or a period and a half, jitter 0, 1, a period or one and a half, sometimes a stream that runs
// once; ranged block times, copies, after_stream_idle, sometimes a high-priority stream. With
// `across_rates`, every stream repeats and later streams wait on earlier ones of other periods.
Workload periodic_window_workload(std::uint64_t seed, bool heavy, bool across_rates = false) {
    std::mt19937_64 rng(seed);
    auto pick = [&](std::uint64_t n) { return static_cast<int>(rng() % n); };
    const RandomWorkloadSpec spec = test::frames_spec(rng, 3);
    Workload w = random_workload(spec, seed);
    const Time light[] = {12, 16, 24}, dense[] = {6, 8, 12};
    const Time offsets[] = {0, Time(1, 2), Time(3, 2)}, jitters[] = {0, 1, 1, Time(3, 2)};
    for (std::size_t s = 0; s < w.streams.size(); ++s) {
        if (s > 0 && pick(5) == 0 && !across_rates) continue;  // runs once
        Arrival& a = w.streams[s].arrival;
        a.kind = Arrival::Kind::periodic;
        a.period = (heavy ? dense : light)[pick(3)];
        a.offset = a.period * offsets[pick(3)];
        const int j = pick(4);
        a.jitter = j == 0 ? Time(0) : j == 1 ? Time(1) : a.period * jitters[j];
    }
    if (across_rates) test::add_waits_across_rates(w, rng, 2);
    validate_workload(w);
    validate_frames(w);
    return w;
}

constexpr int periods_simulated = 12;  // of the longest period: several hyperperiods of these

// The bounds of the busy window of each seeded workload that gets one, against its periodic
// releases simulated over many hyperperiods; `seen` is shown each such workload. How many got one.
int check_against_periodic_releases(bool across_rates, const std::function<void(const Workload&)>& seen) {
    int bounded = 0;
    for (std::uint64_t seed = 1; seed <= test::seeded(40); ++seed) {
        INFO("seed " << seed);
        const Workload w = periodic_window_workload(seed, false, across_rates);
        std::string why;
        const std::optional<BusyWindowBounds> b = busy_window_bounds(w, Budget(), why);
        if (!b) continue;
        ++bounded;
        seen(w);
        const auto v = test::exceeds(w, b->upper, seed, 4, 40, false, periods_simulated, true);
        CHECK_FALSE(v);
        if (v) FAIL_CHECK(v->op << " responded " << human_string(v->response) << " above " << human_string(v->upper));
    }
    return bounded;
}

// Whether the busy window broken by `m` shows through the periodic releases of some heavy
// seeded workload (with waits across rates: one that has a wait).
bool periodic_releases_catch(BusyWindowMutation m, bool across_rates) {
    for (std::uint64_t seed = 1; seed <= 300; ++seed) {
        const Workload w = periodic_window_workload(seed, true, across_rates);
        if (across_rates && !w.has_wait()) continue;
        std::string why;
        BusyWindowOptions o;
        o.window_mutation = m;
        const std::optional<BusyWindowBounds> b = busy_window_bounds(w, Budget(), why, o);
        if (b && test::exceeds(w, b->upper, seed, 6, 100, false, periods_simulated, true)) return true;
    }
    return false;
}

}  // namespace

TEST_CASE("busy window: bounds hold for periodic releases over many hyperperiods, on seeded workloads",
          "[frames][busy-window][periodic][slow]") {
    int beyond_period = 0;
    const int bounded = check_against_periodic_releases(false, [&beyond_period](const Workload& w) {
        for (const Stream& s : w.streams) beyond_period += s.arrival.repeats() && s.arrival.jitter >= s.arrival.period;
    });
    if (!test::sanitized) {
        CHECK(bounded >= 25);  // the comparison is about bounds, so most workloads must get one
        CHECK(beyond_period >= 5);
    }
}

// Each step of the busy window broken on its own must show through periodic releases.
TEST_CASE("busy window: mutations of its steps are caught by periodic releases",
          "[frames][busy-window][periodic][mutation]") {
    for (const BusyWindowMutation m :
         {BusyWindowMutation::one_frame_fewer, BusyWindowMutation::releases_from_nominal}) {
        INFO("mutation " << static_cast<int>(m));
        CHECK(periodic_releases_catch(m, false));
    }
}

// A wait across rates pairs frames by issue order, which a busy period keeps: the frames of
// one busy period carry it (the waited-on frames among them), and dropping it must show.
TEST_CASE("busy window: waits across rates, bounds hold and dropping them is caught",
          "[frames][busy-window][periodic][wait][slow]") {
    int waiting = 0;
    check_against_periodic_releases(true, [&waiting](const Workload& w) { waiting += w.has_wait(); });
    if (!test::sanitized) CHECK(waiting >= 10);
    CHECK(periodic_releases_catch(BusyWindowMutation::waits_dropped, true));
}

// A wait between streams of one period pairs frames by index, which a busy period does not see.
TEST_CASE("busy window: a wait between streams of one period is refused with its reason",
          "[frames][busy-window][periodic][wait]") {
    const Workload w = test::workload_from(
        "[[stream]]\nname = \"a\"\nperiod = 10\n[[stream]]\nname = \"b\"\nperiod = 10\n"
        "[[kernel]]\nname = \"A\"\nstream = \"a\"\nblocks = 1\nthreads = 32\nblock_time = 1\n"
        "[[kernel]]\nname = \"B\"\nstream = \"b\"\nblocks = 1\nthreads = 32\nblock_time = 1\nwait = [\"A\"]\n");
    std::string why;
    CHECK_FALSE(busy_window_bounds(w, Budget(), why));
    CHECK(test::contains(why, "the `wait` of 'B'"));
}

// On a long hyperperiod (here: any, by the options) the engine runs the busy window first; the
// closure then runs as well where one hyperperiod is small enough, each operation keeping the
// least of both (no more than the closures' alone), and not at all beyond: its bounds are then
// the busy window's alone.
TEST_CASE("busy window: the all-time engine takes it first on a long hyperperiod", "[frames][busy-window][all-time]") {
    int compared = 0;
    for (std::uint64_t seed = 1; seed <= 40 && compared < 3; ++seed) {
        INFO("seed " << seed);
        const Workload w = periodic_window_workload(seed, false);
        std::string why;
        const std::optional<BusyWindowBounds> b = busy_window_bounds(w, Budget(), why);
        if (!b || !pattern_gap(w).empty()) continue;
        AllTimeOptions o;
        o.lower_bound_simulations = 30;
        o.search_cap = std::chrono::milliseconds(0);
        o.busy_window_first_above = 0;
        o.hyperperiod_arguments_up_to = 0;
        const AllTimeResult alone = all_time_bounds(w, Budget(), o);
        REQUIRE(alone.busy_window);
        CHECK(alone.closed_after == 0);
        o.hyperperiod_arguments_up_to = 10'000;
        const AllTimeResult both = all_time_bounds(w, Budget(), o);
        o.busy_window_first_above = 10'000;
        const AllTimeResult closures = all_time_bounds(w, Budget(), o);
        for (std::size_t i = 0; i < w.ops.size(); ++i) {
            CHECK(alone.answers[i].upper == b->upper[i]);
            CHECK(alone.answers[i].upper_by == Provenance::busy_window);
            REQUIRE(both.answers[i].upper);
            CHECK(*both.answers[i].upper <= *b->upper[i]);
            if (closures.answers[i].upper) CHECK(*both.answers[i].upper <= *closures.answers[i].upper);
            if (alone.answers[i].lower) CHECK(*alone.answers[i].lower <= *b->upper[i]);
        }
        ++compared;
    }
    CHECK(compared == 3);
}
