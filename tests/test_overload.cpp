// Overload decided from each operation's own issue (bounds/frames/overload.hpp), the lower
// bounds of an overloaded workload, and valid files with after_stream_idle, sporadic streams and
// jitter of a period or more that the all-time analysis answers without an input error
// (docs/theory/all-time.md).
#include <catch2/catch.hpp>

#include <random>

#include "bounds/frames/busy_window.hpp"
#include "bounds/frames/overload.hpp"
#include "model/frames/unroll.hpp"
#include "model/frames/validate_frames.hpp"
#include "model/generate/random_workload.hpp"
#include "model/integer_time.hpp"
#include "model/validate.hpp"
#include "sim/search/lower_bounds.hpp"
#include "sim/simulate.hpp"
#include "solver/frames/all_time.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

// One stream, period 2, one kernel of two blocks of 1024 threads for 5, issued after the stream
// is idle: each frame runs alone on both SMs from its own issue, whatever the releases.
const char* const host_paced_kernel =
    "[[stream]]\nname = \"S\"\nperiod = 2\n"
    "[[kernel]]\nname = \"K\"\nstream = \"S\"\nblocks = 2\nthreads = 1024\nblock_time = 5\n"
    "after_stream_idle = 0\ndeadline = 6\n";

// How the seeded workloads of this file draw their streams' arrivals.
struct OverloadDraw {
    std::vector<Time> periods;
    int least_offset = 0, offsets = 1;  // offset drawn in [least, least + offsets)
    int least_jitter = 0, jitters = 1;
    int after_idle_percent = 0;
};

// 2–3 periodic streams drawn as `d` says, ranged block times, copies; with `d`'s
// after_idle_percent, after_stream_idle inside frames and, a third of the time, first in a frame.
Workload overload_drawn(std::uint64_t seed, const OverloadDraw& d) {
    std::mt19937_64 rng(seed);
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); };
    RandomWorkloadSpec spec = test::frames_spec(rng, 3);
    spec.after_idle_percent = d.after_idle_percent;
    Workload w = random_workload(spec, seed);
    for (Stream& s : w.streams) {
        s.arrival.kind = Arrival::Kind::periodic;
        s.arrival.period = d.periods[static_cast<std::size_t>(pick(static_cast<int>(d.periods.size())))];
        s.arrival.offset = d.least_offset + pick(d.offsets);
        s.arrival.jitter = d.least_jitter + pick(d.jitters);
    }
    for (Operation& op : w.ops)
        if (d.after_idle_percent > 0 && op.position == 0 && pick(3) == 0)
            op.issue = IssueSpec{IssueSpec::Kind::after_stream_idle, {0, 0}, 0, {}};
    validate_workload(w);
    validate_frames(w);
    return w;
}

// The all-time analysis with a short frame search and without the one-frame engines' step.
AllTimeResult all_time_briefly(const Workload& w) {
    AllTimeOptions o;
    o.lower_bound_simulations = 50;
    o.search_cap = std::chrono::milliseconds(0);
    return all_time_bounds(w, Budget(), o);
}

// The worst simulated response of any operation among the frames of hyperperiods [from, to) of
// one simulation of `n` hyperperiods.
Time worst_between(const Workload& w, const Unrolled& u, const Schedule& s, const Time& from, const Time& to) {
    Time worst = 0;
    for (std::size_t i = 0; i < u.workload.ops.size(); ++i)
        if (u.origin[i].release.lo >= from && u.origin[i].release.lo < to)
            worst = std::max(worst, s.response(static_cast<int>(i)));
    (void)w;
    return worst;
}

// 1–2 streams of jitter T or 2T (releases may overtake each other), one of them sporadic, an
// in-frame `issue = [a, b]` on a later operation, next to a periodic stream.
Workload overtaking_workload(std::uint64_t seed) {
    Workload w = overload_drawn(seed, OverloadDraw{{24, 36}, 0, 1, 0, 2, 0});
    Arrival& first = w.streams[0].arrival;
    first.kind = Arrival::Kind::sporadic;
    first.jitter = first.period * static_cast<long>(1 + seed % 2);
    for (Operation& op : w.ops)
        if (op.position > 0 && op.stream == 0)
            op.issue = IssueSpec{IssueSpec::Kind::at, {1, Time(1 + static_cast<long>(seed % 3 == 0))}, 0, {}};
    validate_workload(w);
    validate_frames(w);
    return w;
}

// Releases in the windows: each nominal instant T after the last, each release anywhere of
// 0, J/2 or J late, so that a frame may be released before its predecessor.
std::vector<std::vector<Time>> overtaking_releases(const Workload& w, const Time& horizon, std::mt19937_64& rng) {
    std::vector<std::vector<Time>> out(w.streams.size());
    for (std::size_t s = 0; s < w.streams.size(); ++s) {
        const Arrival& a = w.streams[s].arrival;
        for (Time nominal = a.offset; nominal < horizon; nominal += a.period)
            out[s].push_back(nominal + a.jitter * static_cast<long>(rng() % 3) / 2);
    }
    return out;
}

}  // namespace

TEST_CASE("overload: a stream issued after_stream_idle answers from its own issue, with no overload",
          "[frames][overload]") {
    const Workload w = test::workload_from(host_paced_kernel);
    CHECK_FALSE(find_overload(w));
    const Unrolled u = unroll(w, Horizon::of_frames(200, {"test", 0, 0}));
    const Schedule s = simulate(u.workload);
    for (std::size_t i = 0; i < u.workload.ops.size(); ++i) CHECK(s.response(static_cast<int>(i)) == 5);
    const AllTimeResult r = all_time_briefly(w);
    CHECK_FALSE(r.overload);
    REQUIRE(r.answers[0].lower);
    CHECK(*r.answers[0].lower == 5);
    CHECK_THAT(r.answers[0].unknown_reason, !Catch::Contains("no bound exists"));
}

TEST_CASE("overload: every overload found shows as growing responses in a long simulation, on seeded workloads",
          "[frames][overload]") {
    int overloaded = 0, host_paced = 0;
    for (std::uint64_t seed = 1; seed <= test::seeded(120); ++seed) {
        INFO("seed " << seed);
        // Short periods, so that many are overloaded, and after_stream_idle often.
        const Workload w = overload_drawn(seed, OverloadDraw{{2, 3, 4, 6}, 0, 1, 0, 2, 40});
        bool paced = false;
        for (const Operation& op : w.ops) paced = paced || op.issue.kind == IssueSpec::Kind::after_stream_idle;
        const std::optional<Overload> found = find_overload(w);
        if (!found) continue;
        ++overloaded;
        host_paced += paced ? 1 : 0;
        const Time H = hyperperiod(w);
        const std::int64_t n = std::max<std::int64_t>(16, (48 / H).convert_to<std::int64_t>());
        const Unrolled u = unroll(w, Horizon::hyperperiods(n, {"test", 0, 0}));
        const Schedule s = simulate(u.workload);
        INFO(found->reason);
        // A backlog that grows without bound: the last quarter's responses pass the first's.
        CHECK(worst_between(w, u, s, H * (3 * n / 4), H * n) > worst_between(w, u, s, 0, H * (n / 4)));
    }
    INFO(overloaded << " overloaded, " << host_paced << " of them with after_stream_idle");
    if (!test::sanitized) {  // the seeds drew the feature: checked for the full count (support.hpp)
        CHECK(overloaded >= 20);
        CHECK(host_paced >= 5);
    }
}

TEST_CASE("overload: certify refutes a deadline a replayed frame misses, though no bound exists",
          "[frames][overload][cli]") {
    // Kernel of 3 every 2: frame n responds 3 + n (its FIFO), above the deadline 4 from frame 2.
    const std::string dir = test::temp_dir(), cex = dir + "/cex.toml";
    const std::string input = test::write_file(dir, "over.toml",
                                               "[[stream]]\nname = \"S\"\nperiod = 2\n"
                                               "[[kernel]]\nname = \"K\"\nstream = \"S\"\nblocks = 2\nthreads = "
                                               "1024\nblock_time = 3\ndeadline = 4\n");
    const auto r = test::run_cli({"certify", input, "--counterexample", cex, "--timeout", "20"});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 1);
    CHECK(test::contains(r.out, "no bound: stream 'S' needs at least 3 per frame"));
    const auto sim = test::run_cli({"simulate", cex});
    INFO(sim.out << sim.err);
    REQUIRE(sim.exit_code == 0);
    CHECK(test::contains(sim.out, "MISSED"));
}

TEST_CASE("overload: sporadic streams issued after_stream_idle beside periodic ones are answered, never refused",
          "[frames][overload][witness]") {
    int with_lower = 0;
    for (std::uint64_t seed = 1; seed <= test::seeded(16); ++seed) {
        INFO("seed " << seed);
        Workload w = overload_drawn(seed, OverloadDraw{{4, 6, 8}, 0, 1, 0, 2, 0});
        w.streams[0].arrival.kind = Arrival::Kind::sporadic;
        for (Operation& op : w.ops)
            if (op.stream == 0 && op.position == 0)
                op.issue = IssueSpec{IssueSpec::Kind::after_stream_idle, {0, 0}, Time(static_cast<long>(seed % 2)), {}};
        validate_frames(w);
        AllTimeResult r;
        REQUIRE_NOTHROW(r = all_time_briefly(w));
        for (const WcrtAnswer& a : r.answers) {
            if (a.lower && a.upper) CHECK(*a.lower <= *a.upper);
            with_lower += a.lower ? 1 : 0;
        }
    }
    CHECK(with_lower > 0);
}

TEST_CASE("overload: a busy window with releases that overtake each other holds for drawn releases",
          "[frames][busy-window]") {
    int bounded = 0;
    for (std::uint64_t seed = 1; seed <= test::seeded(30); ++seed) {
        INFO("seed " << seed);
        const Workload w = overtaking_workload(seed);
        std::string why;
        std::optional<BusyWindowBounds> b;
        REQUIRE_NOTHROW(b = busy_window_bounds(w, Budget(), why));
        INFO(why);
        CHECK_THAT(why, !Catch::Contains("earlier in stream"));
        if (!b) continue;
        ++bounded;
        std::mt19937_64 rng(seed);
        for (int p = 0; p < 4; ++p) {
            const std::vector<std::vector<Time>> releases = overtaking_releases(w, 36 * 6, rng);
            std::vector<std::int64_t> frames(w.streams.size());
            for (std::size_t s = 0; s < w.streams.size(); ++s)
                frames[s] = static_cast<std::int64_t>(releases[s].size());
            const auto at = [&](int s, std::int64_t k) {
                const Time& t = releases[static_cast<std::size_t>(s)][static_cast<std::size_t>(k)];
                return TimeRange{t, t};
            };
            const Unrolled u = unroll_windows(w, frames, at, {"test", 0, 0});
            search::LowerBoundSearch search(u.workload, integer_times(u.workload), Policy::chooser, seed + p);
            search.run(40, Budget());
            for (std::size_t i = 0; i < u.workload.ops.size(); ++i) {
                const std::optional<Time>& seen = search.best()[i];
                const std::optional<Time>& bound = b->upper[u.origin[i].op];
                INFO(u.workload.ops[i].name);
                if (seen && bound) CHECK(*seen <= *bound);
            }
        }
    }
    if (!test::sanitized) CHECK(bounded >= 10);  // the seeds drew the feature: for the full count
}

TEST_CASE("overload: the GPU idle at a hyperperiod plus the least offset closes, derived by hand",
          "[frames][all-time]") {
    // KA (2 blocks of 1024 threads for 3) is released in [2, 8] of every 10, so it may end at 11,
    // past the hyperperiod's end 10, but no later, when B's next frame is released (KB: 1 block
    // for 1 at 1 + 5k; the least offset is B's 1). KB's block fits beside KA's (one per SM, 2048
    // threads each): responses 3 and 1, and the GPU is idle at 11 in every scenario.
    const Workload w = test::workload_from(
        "[[stream]]\nname = \"A\"\nperiod = 10\noffset = 2\njitter = 6\n"
        "[[stream]]\nname = \"B\"\nperiod = 5\noffset = 1\n"
        "[[kernel]]\nname = \"KA\"\nstream = \"A\"\nblocks = 2\nthreads = 1024\nblock_time = 3\n"
        "[[kernel]]\nname = \"KB\"\nstream = \"B\"\nblocks = 1\nthreads = 1024\nblock_time = 1\n");
    const AllTimeResult r = all_time_briefly(w);
    CHECK(r.closed_after == 1);
    CHECK(r.closed_offset == 1);
    REQUIRE(r.answers[0].upper);
    REQUIRE(r.answers[1].upper);
    CHECK(*r.answers[0].upper == 3);
    CHECK(*r.answers[1].upper == 1);
}

TEST_CASE("overload: closures idle at a hyperperiod plus the least offset hold for long simulations, seeded",
          "[frames][all-time][slow]") {
    int closed = 0;
    for (std::uint64_t seed = 1; seed <= test::seeded(60); ++seed) {
        INFO("seed " << seed);
        // Periods 6, 8 or 12, every stream with an offset of 1 to 3 and a jitter of 1 to 3, so
        // that frames run past each hyperperiod's end.
        const Workload w = overload_drawn(seed, OverloadDraw{{6, 8, 12}, 1, 3, 1, 3, 0});
        const AllTimeResult r = all_time_briefly(w);
        if (r.closed_offset == 0) continue;
        ++closed;
        // Releases on a grid of their windows (start, middle, end), block times at their ends
        // and middles by the search, over the closure's hyperperiods and three more.
        const Unrolled u = unroll(w, Horizon::hyperperiods(r.closed_after + 3, {"test", 0, 0}));
        std::mt19937_64 rng(seed);
        for (int p = 0; p < 6; ++p) {
            Workload fixed = u.workload;
            for (Operation& op : fixed.ops)
                if (op.issue.kind == IssueSpec::Kind::at) {
                    const Time at =
                        op.issue.at.lo + (op.issue.at.hi - op.issue.at.lo) * static_cast<long>(rng() % 3) / 2;
                    op.issue.at = {at, at};
                }
            std::optional<IntegerTimes> times;
            try {
                validate_workload(fixed);
                times = integer_times(fixed);
            } catch (const InputError&) {
                continue;  // windows drawn out of the host's order
            }
            search::LowerBoundSearch search(fixed, *times, Policy::chooser, seed + p);
            search.run(40, Budget());
            for (std::size_t i = 0; i < fixed.ops.size(); ++i) {
                const std::optional<Time>& seen = search.best()[i];
                const std::optional<Time>& bound = r.answers[u.origin[i].op].upper;
                INFO(fixed.ops[i].name);
                if (seen && bound) CHECK(*seen <= *bound);
            }
        }
    }
    CHECK(closed >= 5);
}
