// The busy window (bounds/frames/busy_window.hpp, docs/theory/all-time.md): its bounds against
// simulated scenarios with sporadic releases drawn at random (every gap at least the least
// inter-arrival time, each release up to its jitter late), a busy window derived by hand, and a
// mutation the comparison must catch.
#include <catch2/catch.hpp>

#include <random>

#include "bounds/frames/busy_window.hpp"
#include "model/frames/validate_frames.hpp"
#include "model/generate/random_workload.hpp"
#include "model/integer_time.hpp"
#include "model/io/load_toml.hpp"
#include "model/validate.hpp"
#include "sim/search/lower_bounds.hpp"
#include "solver/frames/all_time.hpp"
#include "drawn_releases.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

// 2–3 sporadic streams (least inter-arrival times 12, 16 or 24; `heavy`: 6, 8 or 12), jitter
// 0, 1/2 or 1, sometimes a stream that runs once, ranged block times, copies, after_stream_idle,
// sometimes a high-priority stream.
Workload sporadic_workload(std::uint64_t seed, bool heavy) {
    std::mt19937_64 rng(seed);
    auto pick = [&](std::uint64_t n) { return static_cast<int>(rng() % n); };
    const RandomWorkloadSpec spec = test::frames_spec(rng, 3);
    Workload w = random_workload(spec, seed);
    const Time light[] = {12, 16, 24}, dense[] = {6, 8, 12};
    const Time jitters[] = {0, Time(1, 2), 1};
    for (std::size_t s = 0; s < w.streams.size(); ++s) {
        if (s > 0 && pick(5) == 0) continue;  // runs once
        Arrival& a = w.streams[s].arrival;
        a.kind = Arrival::Kind::sporadic;
        a.period = (heavy ? dense : light)[pick(3)];
        a.jitter = jitters[pick(3)];
    }
    validate_workload(w);
    validate_frames(w);
    return w;
}

}  // namespace

TEST_CASE("busy window: bounds hold for drawn sporadic releases, on seeded workloads", "[frames][busy-window]") {
    int bounded = 0;
    for (std::uint64_t seed = 1; seed <= test::seeded(40); ++seed) {
        INFO("seed " << seed);
        const Workload w = sporadic_workload(seed, false);
        std::string why;
        const std::optional<BusyWindowBounds> b = busy_window_bounds(w, Budget(), why);
        if (!b) continue;
        ++bounded;
        const auto v = test::exceeds(w, b->upper, seed, 4, 60);
        CHECK_FALSE(v);
        if (v) FAIL_CHECK(v->op << " responded " << human_string(v->response) << " above " << human_string(v->upper));
    }
    if (!test::sanitized) CHECK(bounded >= 25);  // the comparison is about bounds, so most workloads must get one
}

// The interference bound is what the busy window's frames are bounded with: an unsound one must
// show through the drawn releases (the busy window's own arithmetic is derived by hand below).
TEST_CASE("busy window: mutations of the bound it runs are caught by drawn releases",
          "[frames][busy-window][mutation]") {
    for (const InterferenceMutation m : {InterferenceMutation::no_carry_in, InterferenceMutation::no_own_blocks}) {
        INFO("mutation " << static_cast<int>(m));
        bool caught = false;
        for (std::uint64_t seed = 1; seed <= 300 && !caught; ++seed) {
            const Workload w = sporadic_workload(seed, true);
            std::string why;
            const std::optional<BusyWindowBounds> b = busy_window_bounds(w, Budget(), why, {m});
            if (b) caught = test::exceeds(w, b->upper, seed, 8, 150, true).has_value();
        }
        CHECK(caught);
    }
}

TEST_CASE("busy window: the all-time answer with sporadic streams, lower bounds at the densest releases",
          "[frames][busy-window][all-time]") {
    int compared = 0;
    for (std::uint64_t seed = 1; seed <= test::seeded(20); ++seed) {
        INFO("seed " << seed);
        const Workload w = sporadic_workload(seed, false);
        AllTimeOptions o;
        o.lower_bound_simulations = 60;
        o.search_cap = std::chrono::milliseconds(0);
        const AllTimeResult r = all_time_bounds(w, Budget(), o);
        if (!r.busy_window) continue;
        ++compared;
        for (const WcrtAnswer& a : r.answers) {
            REQUIRE(a.upper);
            CHECK(a.upper_by == Provenance::busy_window);
            REQUIRE(a.lower);  // every operation runs in the densest releases
            CHECK(*a.lower <= *a.upper);
        }
    }
    if (!test::sanitized) CHECK(compared >= 10);
}

// One sporadic stream of one kernel: 2 blocks of 1024 threads on the TX2's 2 SMs, block time
// [1, 2], at least 5 apart, jitter 1. Rooms: threads (2048 − 1024)/1024 + 1 = 2 blocks of 1024,
// so a block weighs 1024/2048 = 1/2 (slots weigh 1/32). One frame costs its last blocks, 2, plus
// 2 blocks · 1/2 · 2 / 2 SMs = 1: 3. Frames by X: ⌊(X + 1)/5⌋ + 1, so X = 3 · 1 = 3 is the least
// fixed point (⌊4/5⌋ + 1 = 1): one frame per busy period, released in [0, 3]. Its kernel runs
// alone: both blocks at once, response 2.
TEST_CASE("busy window: one sporadic kernel, derived by hand", "[frames][busy-window]") {
    const Workload w = test::workload_from(
        "[[stream]]\nname = \"s\"\nmin_interarrival = 5\njitter = 1\n"
        "[[kernel]]\nname = \"K\"\nstream = \"s\"\nblocks = 2\nthreads = 1024\nblock_time = [1, 2]\n");
    CHECK(busy_cost(w, 0) == 3);
    std::string why;
    const std::optional<BusyWindow> b = busy_window(w, 1000, why);
    REQUIRE(b);
    CHECK(b->length == 3);
    CHECK(b->frames == std::vector<std::int64_t>{1});
    const std::optional<BusyWindowBounds> bounds = busy_window_bounds(w, Budget(), why);
    REQUIRE(bounds);
    CHECK(bounds->upper[0] == Time(2));
}

// The same kernel at least 4 apart: X₀ = 3 · (⌊1/4⌋ + 1) = 3, X₁ = 3 · (⌊4/4⌋ + 1) = 6,
// X₂ = 3 · (⌊7/4⌋ + 1) = 6: two frames per busy period. At least 2 apart, 3 per 2 units of time
// is more than the GPU: no busy window.
TEST_CASE("busy window: two frames per busy period, and none, derived by hand", "[frames][busy-window]") {
    const std::string kernel =
        "[[kernel]]\nname = \"K\"\nstream = \"s\"\nblocks = 2\nthreads = 1024\nblock_time = [1, 2]\n";
    const Workload four = test::workload_from("[[stream]]\nname = \"s\"\nmin_interarrival = 4\njitter = 1\n" + kernel);
    std::string why;
    const std::optional<BusyWindow> b = busy_window(four, 1000, why);
    REQUIRE(b);
    CHECK(b->length == 6);
    CHECK(b->frames == std::vector<std::int64_t>{2});
    const Workload two = test::workload_from("[[stream]]\nname = \"s\"\nmin_interarrival = 2\njitter = 1\n" + kernel);
    CHECK_FALSE(busy_window(two, 1000, why));
    CHECK(test::contains(why, "1.5 per unit of time"));
}

// cases/periodic/camera-radar.toml, whose derivation by hand is written in the file.
TEST_CASE("busy window: the camera and sporadic radar case", "[frames][busy-window][cases]") {
    const Workload w = load_workload_file(std::string(GPUWCRT_SOURCE_DIR) + "/cases/periodic/camera-radar.toml");
    std::string why;
    const std::optional<BusyWindow> b = busy_window(w, 1000, why);
    REQUIRE(b);
    CHECK(b->length == Time(9, 2));
    CHECK(b->frames == std::vector<std::int64_t>{1, 1});
    AllTimeOptions o;
    o.lower_bound_simulations = 200;
    const AllTimeResult r = all_time_bounds(w, Budget(), o);
    REQUIRE(r.busy_window);
    CHECK(*r.busy_window == Time(9, 2));
    for (const auto& [op, wcrt] : {std::pair{0, Time(2)}, std::pair{1, Time(1)}}) {
        CHECK(r.answers[op].status == WcrtStatus::exact);
        CHECK(r.answers[op].upper == wcrt);
    }
}
