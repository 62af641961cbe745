// The exploration of the frames to a fixed point (solver/frames/frame_exploration.hpp): the
// hand-derived backlog of cases/periodic/two-cameras.toml, refusals, and the exploration against
// the exact engine on several hyperperiods unrolled, on seeded periodic workloads with fixed
// times, waits, copies and priorities — with a mutation that drops the carry-over caught.
#include <catch2/catch.hpp>

#include <random>

#include <nlohmann/json.hpp>

#include "model/frames/unroll.hpp"
#include "model/frames/validate_frames.hpp"
#include "model/generate/random_workload.hpp"
#include "model/io/load_toml.hpp"
#include "model/integer_time.hpp"
#include "model/issue_bounds.hpp"
#include "model/validate.hpp"
#include "sim/search/lower_bounds.hpp"
#include "solver/exact/explorer.hpp"
#include "solver/frames/frame_exploration.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

// 2–3 periodic streams of periods 4, 6, 8 or 12 (frames often carry over), offsets 0 or 1, no
// jitter, fixed block times and copy durations, sometimes a high-priority stream, and waits from
// later streams on earlier ones of the same period.
Workload fixed_periodic_workload(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto pick = [&](std::uint64_t n) { return static_cast<int>(rng() % n); };
    RandomWorkloadSpec spec;
    spec.streams = 2 + pick(2);
    spec.kernels = spec.streams + pick(3);
    spec.max_blocks = 4;
    spec.max_block_time = 3;
    spec.copy_percent = 15;
    spec.high_priority_streams = pick(3) == 0 ? 1 : 0;
    Workload w = random_workload(spec, seed);
    const Time periods[] = {4, 6, 8, 12};
    for (Stream& s : w.streams) {
        s.arrival.kind = Arrival::Kind::periodic;
        s.arrival.period = periods[pick(4)];
        s.arrival.offset = pick(2);
    }
    test::add_same_period_waits(w, rng, 2);
    validate_workload(w);
    validate_frames(w);
    return w;
}

struct Comparison {
    bool compared = false;  // the exact engine completed on the frames
    int below = 0;          // frames whose exact response exceeds the exploration's worst
    bool equal = true;      // every operation's worst met by some frame that ends in time
};

// The exact engine on `k` hyperperiods: a frame that completes by k·H in every scenario responds
// there as in the system (docs/theory/all-time.md, fact 1), so the exploration's worst is at least its
// exact response.
Comparison compare_with_exact(const Workload& w, const FrameExploration& e, int k) {
    Comparison c;
    const Unrolled u = unroll(w, Horizon::hyperperiods(k, {"test", 0, 0}));
    if (u.workload.ops.size() > 24) return c;
    const Budget b = Budget::for_timeout(std::chrono::milliseconds(5000));
    const ExactResult r = exact_wcrt(u.workload, EngineOptions{}, b);
    if (!r.complete) return c;
    c.compared = true;
    const Time end = hyperperiod(w) * k;
    const std::vector<IssueBounds<Time>> issue = issue_bounds(u.workload);
    std::vector<bool> met(w.ops.size(), false);
    for (std::size_t i = 0; i < u.workload.ops.size(); ++i) {
        const std::optional<Time>& response = r.wcrt[i].lower;
        if (!response || !issue[i].hi || *issue[i].hi + *response > end) continue;
        const std::optional<Time>& worst = e.worst[static_cast<std::size_t>(u.origin[i].op)];
        if (!worst || *worst < *response) ++c.below;
        else if (*worst == *response) met[static_cast<std::size_t>(u.origin[i].op)] = true;
    }
    for (const bool m : met) c.equal = c.equal && m;
    return c;
}

// Random and searched scenarios of 8 hyperperiods: the number of frame responses above the
// exploration's worst, among frames that complete by the end (later ones miss later frames).
int simulated_above(const Workload& w, const FrameExploration& e, std::uint64_t seed) {
    const Unrolled u = unroll(w, Horizon::hyperperiods(8, {"test", 0, 0}));
    search::LowerBoundSearch s(u.workload, integer_times(u.workload), Policy::chooser, seed);
    s.run(60, Budget());
    const Time end = hyperperiod(w) * 8;
    const std::vector<IssueBounds<Time>> issue = issue_bounds(u.workload);
    int above = 0;
    for (std::size_t i = 0; i < u.workload.ops.size(); ++i) {
        const std::optional<Time>& best = s.best()[i];
        const std::optional<Time>& worst = e.worst[static_cast<std::size_t>(u.origin[i].op)];
        if (best && issue[i].hi && *issue[i].hi + *best <= end && (!worst || *worst < *best)) ++above;
    }
    return above;
}

// The frames of cases/periodic/two-cameras.toml explored; `why` says why not.
std::optional<FrameExploration> explore_two_cameras(std::string& why, const FrameExplorationOptions& o = {},
                                                    const Budget& budget = Budget()) {
    return explore_frames(load_workload_file("cases/periodic/two-cameras.toml"), budget, why, o);
}

}  // namespace

TEST_CASE("frame exploration: two cameras' backlog holds fuse at 10 and detectB at 5, for every frame",
          "[frames][exploration]") {
    std::string why;
    const std::optional<FrameExploration> e = explore_two_cameras(why);
    REQUIRE(e);
    // The hand derivation in the case file: 3, 5 (from frame 2 on) and 10 (from frame 2 on).
    CHECK(e->worst[0] == Time(3));
    CHECK(e->worst[1] == Time(5));
    CHECK(e->worst[2] == Time(10));
    // Without the carry-over every frame starts as frame 0 did: fuse 8, an unsound answer.
    FrameExplorationOptions dropped;
    dropped.drop_carry_over = true;
    const std::optional<FrameExploration> d = explore_two_cameras(why, dropped);
    REQUIRE(d);
    CHECK(d->worst[2] < Time(10));
    // wcrt says so, exact for every frame, and names the argument.
    const auto run = test::run_cli({"wcrt", "cases/periodic/two-cameras.toml", "--json"});
    REQUIRE(run.exit_code == 0);
    const auto out = nlohmann::json::parse(run.out);
    CHECK(out["explored_window_hyperperiods"] == 3);
    for (const auto& op : out["operations"]) CHECK(op["status"] == "exact");
    CHECK(out["operations"][2]["upper_bound"] == "10");
    CHECK(out["operations"][2]["upper_by"] == "frame exploration");
}

TEST_CASE("frame exploration: the state limit is on the states kept, and the memory budget stops it with the reason",
          "[frames][exploration]") {
    std::string why;
    const std::optional<FrameExploration> e = explore_two_cameras(why);
    REQUIRE(e);
    REQUIRE(e->states > 1);
    FrameExplorationOptions o;
    o.max_states = e->states;  // exactly the states the closing window keeps
    const std::optional<FrameExploration> at = explore_two_cameras(why, o);
    REQUIRE(at);
    CHECK(at->states == e->states);
    CHECK(at->worst == e->worst);
    o.max_states = e->states - 1;
    CHECK_FALSE(explore_two_cameras(why, o));
    CHECK(why == "more than " + std::to_string(e->states - 1) + " states");
    Budget small;
    small.memory_bytes = 1024;  // less than the first level's store
    CHECK_FALSE(explore_two_cameras(why, {}, small));
    CHECK(why == "memory limit while the frames were explored");
}

TEST_CASE("frame exploration: jitter, ranges, sporadic streams and overlong backlogs are refused with the reason",
          "[frames][exploration]") {
    const std::string head = "[[stream]]\nname = \"s\"\n";
    const std::string kernel = "[[kernel]]\nname = \"K\"\nstream = \"s\"\nblocks = 2\nthreads = 1024\n";
    const std::pair<std::string, std::string> cases[] = {
        {head + "period = 4\njitter = 1\n" + kernel + "block_time = 1\n", "release jitter"},
        {head + "min_interarrival = 4\n" + kernel + "block_time = 1\n", "is not periodic"},
        {head + "period = 4\n" + kernel + "block_time = [1, 2]\n", "interval"},
        {head + "period = 4\noffset = 4\n" + kernel + "block_time = 1\n", "with its offset below its period"},
    };
    for (const auto& [toml, reason] : cases) {
        INFO(toml);
        std::string why;
        CHECK_FALSE(explore_frames(test::workload_from(toml), Budget(), why));
        CHECK_THAT(why, Catch::Contains(reason));
    }
    // Frames of 8 blocks of 1024 threads on 2 SMs of 2048: two waves of 4, then L; a frame
    // takes 3 of a period of 2: the backlog grows, no window holds it.
    std::string why;
    FrameExplorationOptions o;
    o.max_window = 3;
    const std::string heavy = head + "period = 2\n[[kernel]]\nname = \"K\"\nstream = \"s\"\nblocks = 8\n" +
                              "threads = 1024\nblock_time = 1\n[[kernel]]\nname = \"L\"\nstream = \"s\"\n" +
                              "blocks = 1\nthreads = 32\nblock_time = 1\n";
    CHECK_FALSE(explore_frames(test::workload_from(heavy), Budget(), why, o));
    CHECK_THAT(why, Catch::Contains("carry over beyond"));
}

TEST_CASE(
    "frame exploration: at least the exact engine's response of every frame that ends in time, on 400 seeded "
    "periodic workloads; the dropped carry-over is caught",
    "[frames][exploration][slow]") {
    int compared = 0, equal = 0, caught = 0, explored = 0;
    for (std::uint64_t seed = 1; seed <= 400; ++seed) {
        INFO("seed " << seed);
        const Workload w = fixed_periodic_workload(seed);
        std::string why;
        FrameExplorationOptions o;
        o.max_states = 200'000;
        const std::optional<FrameExploration> e = explore_frames(w, Budget(), why, o);
        if (!e) continue;
        ++explored;
        CHECK(simulated_above(w, *e, seed) == 0);  // many moves of the window, sampled
        const Comparison c = compare_with_exact(w, *e, e->window + 1);
        if (!c.compared) continue;
        ++compared;
        CHECK(c.below == 0);
        equal += c.equal;
        o.drop_carry_over = true;
        const std::optional<FrameExploration> d = explore_frames(w, Budget(), why, o);
        if (d) caught += compare_with_exact(w, *d, e->window + 1).below > 0;
    }
    INFO(explored << " explored, " << compared << " compared, " << equal << " met, " << caught << " caught");
    CHECK(compared >= 150);
    CHECK(equal >= compared / 2);  // the worst is a real frame's response, mostly met within the frames compared
    CHECK(caught >= 2);
}
