// The all-time analysis of periodic streams (solver/frames/all_time.hpp, docs/theory/all-time.md):
// its bounds against simulated scenarios of more hyperperiods than it unrolled, overloads it
// must name, and mutations the comparison must catch.
#include <catch2/catch.hpp>

#include <atomic>
#include <memory>
#include <iterator>
#include <random>
#include <string>
#include <thread>

#include "model/frames/unroll.hpp"
#include "model/frames/validate_frames.hpp"
#include "model/generate/random_workload.hpp"
#include "model/integer_time.hpp"
#include "model/validate.hpp"
#include "sim/search/lower_bounds.hpp"
#include "bounds/frames/steady_state.hpp"
#include "solver/block/enumerate/enumerate.hpp"
#include "solver/frames/all_time.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

Workload periodic_workload(std::uint64_t seed, bool heavy = false) { return test::periodic_workload(seed, heavy); }

// Simulated scenarios of `hyperperiods` hyperperiods: the first response above its bound.
std::optional<test::BoundViolation> exceeded(const Workload& w, const AllTimeResult& r, int hyperperiods,
                                             std::uint64_t seed) {
    return test::first_above_bounds(w, r.answers, hyperperiods, seed);
}

}  // namespace

TEST_CASE("all-time bounds hold for frames beyond those analysed, on seeded periodic workloads",
          "[frames][all-time][slow]") {
    int closed = 0, overloaded = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        INFO("seed " << seed);
        const Workload w = periodic_workload(seed);
        AllTimeOptions o;
        o.lower_bound_simulations = 100;
        o.search_cap = std::chrono::milliseconds(seed % 10 == 0 ? 300 : 0);  // the engines' step on some
        const AllTimeResult r = all_time_bounds(w, Budget(), o);
        if (r.overload) {
            ++overloaded;
            continue;
        }
        if (r.closed_after == 0) continue;
        ++closed;
        for (const WcrtAnswer& a : r.answers) {
            REQUIRE(a.upper);
            if (a.lower) CHECK(*a.lower <= *a.upper);
        }
        const auto v = exceeded(w, r, r.closed_after + 2, seed);
        CHECK_FALSE(v);
        if (v) FAIL_CHECK(v->op << " responded " << human_string(v->response) << " above " << human_string(v->upper));
    }
    INFO(closed << " closed, " << overloaded << " overloaded");
    CHECK(closed >= 30);  // the comparison is about bounds, so most workloads must get one
}

TEST_CASE("all-time: each mutation of the argument is caught by the simulated frames", "[frames][all-time][mutation]") {
    for (const bool assume_idle : {false, true}) {
        INFO((assume_idle ? "the first hyperperiod taken as closed" : "waits ignored by the interference bound"));
        bool caught = false;
        for (std::uint64_t seed = 1; seed <= 400 && !caught; ++seed) {
            const Workload w = periodic_workload(seed, assume_idle);
            if (!assume_idle && !w.has_wait()) continue;
            AllTimeOptions o;
            o.lower_bound_simulations = 50;
            o.search_cap = std::chrono::milliseconds(0);
            if (assume_idle) o.assume_idle = true;
            else o.mutation = InterferenceMutation::no_wait;
            caught = test::all_time_mutation_caught(w, o, seed);
        }
        CHECK(caught);
    }
}

TEST_CASE("all-time: a stream that cannot keep up has no bound, and says why at once", "[frames][all-time]") {
    const Workload w = test::workload_from(
        "[[stream]]\nname = \"cam\"\nperiod = 5\n"
        "[[kernel]]\nname = \"K\"\nstream = \"cam\"\nblocks = 1\nthreads = 1024\nblock_time = 3\n"
        "[[kernel]]\nname = \"L\"\nstream = \"cam\"\nblocks = 1\nthreads = 1024\nblock_time = [3, 4]\n");
    const AllTimeResult r = all_time_bounds(w, Budget());
    REQUIRE(r.overload);
    CHECK(r.overload->stream == 0);
    CHECK_THAT(r.overload->reason, Catch::Contains("needs at least 6 per frame") && Catch::Contains("every 5"));
    for (const WcrtAnswer& a : r.answers) {
        CHECK_FALSE(a.upper);
        CHECK_THAT(a.unknown_reason, Catch::StartsWith("no bound exists"));
    }
}

TEST_CASE("all-time: more work than the SMs can serve has no bound", "[frames][all-time]") {
    // Two streams, each alone within its period, together beyond the 2 SMs' threads: 4 blocks
    // of 1024 threads hold both SMs (2048 threads each) for 3 every 4, twice.
    const Workload w = test::workload_from(
        "[[stream]]\nname = \"a\"\nperiod = 4\n[[stream]]\nname = \"b\"\nperiod = 4\n"
        "[[kernel]]\nname = \"A\"\nstream = \"a\"\nblocks = 4\nthreads = 1024\nblock_time = 3\n"
        "[[kernel]]\nname = \"B\"\nstream = \"b\"\nblocks = 4\nthreads = 1024\nblock_time = 3\n");
    const AllTimeResult r = all_time_bounds(w, Budget());
    REQUIRE(r.overload);
    CHECK(r.overload->stream == -1);
    CHECK_THAT(r.overload->reason, Catch::Contains("threads"));
}

TEST_CASE("all-time: a stream alone on the GPU, derived by hand", "[frames][all-time]") {
    // One stream, period 10, one kernel of 1 block for [2, 3]: each frame runs alone (the
    // previous one ended by 3 < 10), so every frame's response is its block time: at most 3,
    // reached when the block takes 3. The GPU is idle at 10.
    const Workload w = test::workload_from(
        "[[stream]]\nname = \"cam\"\nperiod = 10\njitter = 1\n"
        "[[kernel]]\nname = \"K\"\nstream = \"cam\"\nblocks = 1\nthreads = 256\nblock_time = [2, 3]\n");
    const AllTimeResult r = all_time_bounds(w, Budget());
    REQUIRE_FALSE(r.overload);
    CHECK(r.closed_after == 1);
    REQUIRE(r.answers[0].upper);
    CHECK(*r.answers[0].upper == 3);
    REQUIRE(r.answers[0].lower);
    CHECK(*r.answers[0].lower == 3);
    CHECK(r.answers[0].status == WcrtStatus::exact);
    CHECK(r.answers[0].frame == 0);
}

namespace {

// The phases of all_time_bounds in the order it enters them (the busy window and the lower
// bounds' last search after these).
const char* const all_time_phases[] = {"all time: is the GPU idle after one hyperperiod",
                                       "all time: a steady state of the bounds",
                                       "all time: is the GPU idle after 2 to 8 hyperperiods",
                                       "all time: the frames explored to a fixed point",
                                       "all time: a busy window",
                                       "all time: lower bounds from replayed frames"};

// all_time_bounds on `w` without the one-frame engines, stopped (as SIGINT stops a run) as soon
// as it has entered all_time_phases[phase] or a later one; `phase` -1: never stopped.
AllTimeResult all_time_stopped_at(const Workload& w, int phase) {
    auto stop = std::make_shared<std::atomic<bool>>(false);
    const Budget budget = Budget().stopped_by(stop);
    std::atomic<bool> done{false};
    std::thread watcher([&] {
        const auto reached = [&] {
            const std::string now = budget.counters().phase.load();
            for (std::size_t p = static_cast<std::size_t>(phase); p < std::size(all_time_phases); ++p)
                if (now == all_time_phases[p]) return true;
            return false;
        };
        if (phase < 0) return;
        while (!done && !reached()) std::this_thread::yield();
        *stop = true;
    });
    AllTimeOptions o;
    o.search_cap = std::chrono::milliseconds(0);
    AllTimeResult r = all_time_bounds(w, budget, o);
    done = true;
    watcher.join();
    return r;
}

// Every answer has a lower bound whose witness, a scenario of the frames reported, replays to it.
void require_replayed_lower_bounds(const Workload& w, const AllTimeResult& r) {
    REQUIRE(r.unrolled);
    for (const WcrtAnswer& a : r.answers) {
        INFO(w.ops[a.op].name);
        REQUIRE(a.lower);
        REQUIRE(a.frame);
        int i = -1;
        for (std::size_t k = 0; k < r.unrolled->origin.size(); ++k)
            if (r.unrolled->origin[k].op == a.op && r.unrolled->origin[k].frame == *a.frame) i = static_cast<int>(k);
        REQUIRE(i >= 0);
        CHECK_NOTHROW(replay_witness(r.unrolled->workload, *a.witness, i, *a.lower));
    }
}

}  // namespace

TEST_CASE("all-time: a run stopped while the upper bounds run keeps the lower bounds replayed so far",
          "[frames][all-time]") {
    // Two periodic streams: the lower bounds of their frames come from the scenario search.
    const Workload w = test::workload_from(
        "[[stream]]\nname = \"cam\"\nperiod = 10\n[[stream]]\nname = \"radar\"\nperiod = 20\n"
        "[[kernel]]\nname = \"detect\"\nstream = \"cam\"\nblocks = 4\nthreads = 1024\nblock_time = 2\n"
        "[[kernel]]\nname = \"track\"\nstream = \"radar\"\nblocks = 4\nthreads = 1024\nblock_time = 3\n");
    // Stopped (as SIGINT stops a run) the moment the first upper-bound argument starts.
    const AllTimeResult r = all_time_stopped_at(w, 0);
    require_replayed_lower_bounds(w, r);
    for (const WcrtAnswer& a : r.answers) {
        INFO(w.ops[a.op].name);
        CHECK(*a.lower >= w.ops[a.op].time.lo);  // at least one block time: replayed by the first round
    }
}

TEST_CASE(
    "all-time: a run stopped after the first, second or third upper-bound argument keeps every round's "
    "lower bounds, the more the later",
    "[frames][all-time][interrupt]") {
    // No argument bounds these frames (the fusion stream's backlog may grow), so each runs in
    // turn, closures, the steady state and closures over more hyperperiods first; ranged block
    // times, so that the lower bounds come from the scenario search.
    const Workload w = test::workload_from(
        "[[stream]]\nname = \"camA\"\nperiod = 6\njitter = 1\n"
        "[[stream]]\nname = \"camB\"\nperiod = 6\noffset = 1\n"
        "[[stream]]\nname = \"fusion\"\nperiod = 12\n"
        "[[kernel]]\nname = \"detectA\"\nstream = \"camA\"\nblocks = 2\nthreads = 1024\nblock_time = [2, 3]\n"
        "[[kernel]]\nname = \"detectB\"\nstream = \"camB\"\nblocks = 2\nthreads = 1024\nblock_time = [2, 3]\n"
        "[[kernel]]\nname = \"fuse\"\nstream = \"fusion\"\nblocks = 3\nthreads = 1024\nblock_time = [3, 4]\n");
    // Stopped as the first argument starts: the first round's bounds alone.
    AllTimeResult earlier = all_time_stopped_at(w, 0);
    require_replayed_lower_bounds(w, earlier);
    for (int phase = 1; phase <= 3; ++phase) {
        INFO("stopped as " << all_time_phases[phase] << " starts");
        const AllTimeResult r = all_time_stopped_at(w, phase);
        require_replayed_lower_bounds(w, r);
        // One search split in rounds: a later stop has searched at least as far.
        if (phase == 1) CHECK(r.simulations > earlier.simulations);  // the round after the first argument
        CHECK(r.simulations >= earlier.simulations);
        for (std::size_t op = 0; op < w.ops.size(); ++op) CHECK(*r.answers[op].lower >= *earlier.answers[op].lower);
        earlier = r;
    }
    // A run that ends on its own finishes the same search: at least every stop's bounds, the
    // same on every run.
    const AllTimeResult whole = all_time_stopped_at(w, -1), again = all_time_stopped_at(w, -1);
    require_replayed_lower_bounds(w, whole);
    CHECK(whole.simulations > earlier.simulations);
    for (std::size_t op = 0; op < w.ops.size(); ++op) {
        CHECK(*whole.answers[op].lower >= *earlier.answers[op].lower);
        CHECK(whole.answers[op].lower == again.answers[op].lower);
        CHECK(whole.answers[op].frame == again.answers[op].frame);
    }
}

namespace {

// The steady state of the interference bound (bounds/frames/steady_state.hpp) over 1, 2 or 4
// hyperperiods, as all_time_bounds tries it; nullopt when none settles.
std::optional<AllTimeResult> steady_only(const Workload& w, bool from_idle) {
    SteadyOptions so;
    so.from_idle = from_idle;
    std::string why;
    const std::optional<SteadyBounds> st = steady_bounds(w, Budget(), so, why);
    if (!st) return std::nullopt;
    AllTimeResult r;
    r.answers = unknown_answers(w);
    for (std::size_t op = 0; op < w.ops.size(); ++op) r.answers[op].upper = st->upper[op];
    r.steady_over = st->hyperperiods;
    return r;
}

}  // namespace

TEST_CASE("all-time: the steady state bounds frames that carry over, on seeded periodic workloads",
          "[frames][all-time][steady][slow]") {
    int settled = 0, carried = 0;
    for (std::uint64_t seed = 1; seed <= 80; ++seed) {
        INFO("seed " << seed);
        const Workload w = periodic_workload(seed, true);
        if (find_overload(w)) continue;
        const std::optional<AllTimeResult> r = steady_only(w, false);
        if (!r) continue;
        ++settled;
        // Carried over: the first hyperperiod is not proven to end idle by the interference bound.
        AllTimeOptions idle;
        idle.search_cap = std::chrono::milliseconds(0);
        idle.max_hyperperiods = 1;
        idle.lower_bound_simulations = 0;
        carried += all_time_bounds(w, Budget(), idle).closed_after == 0 ? 1 : 0;
        const auto v = exceeded(w, *r, 2 * r->steady_over + 4, seed);
        CHECK_FALSE(v);
        if (v) FAIL_CHECK(v->op << " responded " << human_string(v->response) << " above " << human_string(v->upper));
    }
    INFO(settled << " settled, " << carried << " of them carrying frames over a hyperperiod's end");
    CHECK(settled >= 20);
    CHECK(carried >= 3);
}

TEST_CASE("all-time: the steady state without the previous hyperperiod's carry-over is caught",
          "[frames][all-time][steady][mutation][slow]") {
    bool caught = false;
    for (std::uint64_t seed = 1; seed <= 400 && !caught; ++seed) {
        const Workload w = periodic_workload(seed, true);
        if (find_overload(w)) continue;
        const std::optional<AllTimeResult> r = steady_only(w, true);
        if (r) caught = exceeded(w, *r, 2 * r->steady_over + 4, seed).has_value();
    }
    CHECK(caught);
}

namespace {

// The worst enumerated response (every launch order, placement, block time and issue instant on
// the enumeration's grid) of each unrolled operation of `hyperperiods` hyperperiods above its
// operation's all-time upper bound, if any; nullopt also when the enumeration did not finish.
std::optional<test::BoundViolation> enumerated_above(const Workload& w, const AllTimeResult& r, int hyperperiods,
                                                     bool& complete) {
    const Unrolled u = unroll(w, Horizon::hyperperiods(hyperperiods, {"test", 0, 0}));
    complete = false;
    if (u.workload.ops.size() > 8) return std::nullopt;
    EnumerationResult e;
    try {
        e = enumerate_wcrt(u.workload, EngineOptions{}, Budget().capped(std::chrono::milliseconds(3000)));
    } catch (const InputError&) {  // a feature enumeration does not range over
        return std::nullopt;
    }
    complete = e.complete;
    for (std::size_t i = 0; i < u.workload.ops.size() && complete; ++i) {
        const WcrtAnswer& a = r.answers[u.origin[i].op];
        const std::optional<Time>& seen = e.wcrt[i].lower;
        if (seen && a.upper && *seen > *a.upper) return test::BoundViolation{u.workload.ops[i].name, *seen, *a.upper};
    }
    return std::nullopt;
}

}  // namespace

TEST_CASE("all-time bounds are at least every enumerated scenario of one more hyperperiod, releases on a grid",
          "[frames][all-time][enumerate][slow]") {
    // Small enough to enumerate (at most 8 unrolled operations): the mutations of the argument
    // are caught by the simulated frames above, on larger workloads, where carry-over happens.
    int compared = 0;
    for (std::uint64_t seed = 1; seed <= 400 && compared < 20; ++seed) {
        INFO("seed " << seed);
        const Workload w = periodic_workload(seed, true);
        AllTimeOptions o;
        o.lower_bound_simulations = 20;
        o.search_cap = std::chrono::milliseconds(0);
        const AllTimeResult r = all_time_bounds(w, Budget(), o);
        if (r.overload || (r.closed_after == 0 && r.steady_over == 0 && !r.busy_window)) continue;
        const int k = std::max({r.closed_after, 2 * r.steady_over, 1}) + 1;
        bool complete = false;
        const auto v = enumerated_above(w, r, k, complete);
        if (!complete) continue;
        ++compared;
        CHECK_FALSE(v);
        if (v) FAIL_CHECK(v->op << " responded " << human_string(v->response) << " above " << human_string(v->upper));
    }
    CHECK(compared >= 20);
}
