// The scenario search (sim/search/): lower bounds under block-time intervals and
// issue windows off the tick grid. Every bound it reports is a replayed scenario, at or below a
// proven upper bound (the abstraction's, or enumeration's exact WCRT for point times), at or
// above the plain scenario `simulate` runs, and the same on every run with the same seed.
#include <catch2/catch.hpp>

#include <limits>

#include "bounds/abstraction/bounds.hpp"
#include "sim/search/lower_bounds.hpp"
#include "sim/search/scenario_search.hpp"
#include "model/generate/camera_pipeline.hpp"
#include "model/generate/pipeline_workload.hpp"
#include "model/generate/random_workload.hpp"
#include "model/io/load_toml.hpp"
#include "model/io/write_toml.hpp"
#include "sim/simulate.hpp"
#include "solver/block/enumerate/enumerate.hpp"
#include "support.hpp"

using namespace gpuwcrt;
using search::ScenarioSearch;

namespace {

// Small workloads with every feature the search ranges over: intervals, windows, copies,
// several operations per stream, after_stream_idle, a high-priority stream, the NULL stream.
RandomWorkloadSpec spec(std::uint64_t seed, bool ranges) {
    RandomWorkloadSpec s;
    s.kernels = 3 + static_cast<int>(seed % 3);
    s.streams = 2 + static_cast<int>((seed / 3) % 2);
    s.shared_kib = {0, 16, 32};
    s.registers = {0, 32};
    s.max_blocks = 4;
    s.max_block_time = 3;
    s.block_time_denominator = seed % 5 == 0 ? 2 : 1;
    s.staggered_issue = seed % 2 == 1;
    s.copy_percent = 20;
    s.after_idle_percent = 15;
    if (seed % 4 == 1) s.high_priority_streams = 1;
    if (seed % 4 == 2) s.null_stream = true;
    if (seed % 4 == 3) s.high_priority_streams = 1, s.null_stream = true;
    if (seed % 7 == 0) s.sms = 3;
    if (ranges) s.interval_percent = 50, s.window_percent = 40;
    return s;
}

// What `simulate` runs: every range at its default end, file order; `any` as first fit.
Schedule plain(const Workload& w, Policy policy) {
    Scenario sc;
    sc.policy = policy == Policy::chooser ? Policy::first_fit : policy;
    return simulate(w, sc);
}

ScenarioSearch searched(const Workload& w, Policy policy, long long simulations, std::uint64_t seed = 7) {
    ScenarioSearch s(w, search::Options{policy, seed});
    s.run(Budget(), simulations);
    return s;
}

// Every best is a replayed scenario: the witness alone (no genome) reproduces it.
void require_replayed(const Workload& w, const ScenarioSearch& s) {
    for (std::size_t op = 0; op < w.ops.size(); ++op) {
        REQUIRE(s.best()[op]);
        const WitnessScenario x = s.witness(static_cast<int>(op));
        CHECK(simulate(w, witness_scenario(w, x)).response(static_cast<int>(op)) == *s.best()[op]);
    }
}

void check_same_scenario(const WitnessScenario& x, const WitnessScenario& y) {
    CHECK(x.launch_order == y.launch_order);
    CHECK(x.sm == y.sm);
    CHECK(x.block_time == y.block_time);
    CHECK(x.issue == y.issue);
}

}  // namespace

TEST_CASE("scenario search: replayed, at least the plain scenario, at most the abstraction's proven bound",
          "[scenario_search]") {
    int above_plain = 0;
    for (std::uint64_t seed = 1; seed <= test::seeded(120); ++seed) {
        const Workload w = random_workload(spec(seed, true), seed);
        const Policy policy = test::policy_for(seed);
        INFO("seed " << seed << ", policy " << policy_name(policy));
        const ScenarioSearch s = searched(w, policy, 150);
        require_replayed(w, s);
        EngineOptions eo;
        eo.policy = policy;
        BoundsOptions quick;
        quick.lower_bound_simulations = 10;
        const BoundsResult ub = abstraction_bounds(w, eo, Budget(), quick);
        const Schedule base = plain(w, policy);
        for (std::size_t op = 0; op < w.ops.size(); ++op) {
            INFO("operation " << w.ops[op].name);
            REQUIRE(ub.wcrt[op].upper);
            CHECK(*s.best()[op] <= *ub.wcrt[op].upper);
            CHECK(*s.best()[op] >= base.response(static_cast<int>(op)));
            if (*s.best()[op] > base.response(static_cast<int>(op))) ++above_plain;
        }
    }
    CHECK(above_plain > 0);  // the search does more than run the plain scenario
}

TEST_CASE("scenario search: with point times, at most enumeration's exact WCRT, and often equal to it",
          "[scenario_search]") {
    int equal = 0, total = 0;
    for (std::uint64_t seed = 1; seed <= test::seeded(150); ++seed) {
        const Workload w = random_workload(spec(seed, false), seed);
        const Policy policy = test::policy_for(seed);
        INFO("seed " << seed << ", policy " << policy_name(policy));
        EngineOptions eo;
        eo.policy = policy;
        const EnumerationResult e = enumerate_wcrt(w, eo, Budget());
        REQUIRE(e.complete);
        const ScenarioSearch s = searched(w, policy, 200);
        require_replayed(w, s);
        for (std::size_t op = 0; op < w.ops.size(); ++op) {
            CHECK(*s.best()[op] <= *e.wcrt[op].lower);
            equal += *s.best()[op] == *e.wcrt[op].lower;
            ++total;
        }
    }
    // Not a guarantee (a heuristic), a regression guard: the search finds most worst cases.
    CHECK(equal * 10 >= total * 9);
}

// cases/anomalies/shorter-block-time-longer-response.toml, derivation in the file: for L's
// block time e < 2, L ends at e and B runs [e, e + 4); H, issued at 2, needs the whole SM and
// waits for P (4) and B (e + 4): it runs [e + 4, e + 5), response e + 3, which approaches 5 as
// e approaches 2 (at e = 2 it is 3). The abstraction proves 5.
TEST_CASE("scenario search: a shorter block time's longer response, near its supremum", "[scenario_search]") {
    const Workload w = load_workload_file(std::string(GPUWCRT_SOURCE_DIR) +
                                          "/cases/anomalies/shorter-block-time-longer-response.toml");
    const int h = *w.find_op("H");
    const ScenarioSearch s = searched(w, Policy::chooser, 2000);
    require_replayed(w, s);
    CHECK(*s.best()[h] > Time(4));  // the file's e = 1
    CHECK(*s.best()[h] > Time(499, 100));
    CHECK(*s.best()[h] <= Time(5));
    CHECK(s.witness(h).block_time[*w.find_op("L")].front() < Time(2));
}

// cases/anomalies/supremum-not-attained.toml with L after X in X's stream, so that X is always
// launched first (the file leaves the order of X and L open; L first makes 6 reachable at e =
// 2: L [0, 1), X [1, 3), H [3, 8)). The file's derivation then holds for every scenario: for
// e < 2, H's response is e + 4; at e = 2 it is 5: the supremum 6 is never attained.
TEST_CASE("scenario search: a supremum no scenario attains is approached from below", "[scenario_search]") {
    const Workload w = load_workload_text(R"(
[platform]
sms = 1
threads_per_sm = 1024
[[stream]]
name = "a"
[[stream]]
name = "h"
priority = "high"
[[kernel]]
name = "X"
stream = "a"
blocks = 1
threads = 1024
block_time = [1, 2]
[[kernel]]
name = "L"
stream = "a"
blocks = 1
threads = 1024
block_time = 1
[[kernel]]
name = "H"
stream = "h"
issue = 2
blocks = 1
threads = 1024
block_time = 5
)",
                                          "supremum.toml");
    const int h = *w.find_op("H");
    const ScenarioSearch s = searched(w, Policy::chooser, 1000);
    require_replayed(w, s);
    CHECK(*s.best()[h] > Time(599, 100));
    CHECK(*s.best()[h] < Time(6));
}

TEST_CASE("scenario search: the same result for the same seed and count", "[scenario_search]") {
    PipelineSpec p;
    p.streams = 3;
    p.iterations = 2;
    Workload w = pipeline_workload(p, 5);
    for (Operation& op : w.ops) op.time.lo = op.time.hi * Time(4, 5);
    w.ops.front().issue.at.hi = w.ops.front().issue.at.lo + 1;
    const ScenarioSearch a = searched(w, Policy::chooser, 300, 3), b = searched(w, Policy::chooser, 300, 3);
    require_replayed(w, a);
    for (std::size_t op = 0; op < w.ops.size(); ++op) {
        CHECK(a.best()[op] == b.best()[op]);
        check_same_scenario(a.witness(static_cast<int>(op)), b.witness(static_cast<int>(op)));
    }
}

TEST_CASE("scenario search: a witness written as [scenario] is reproduced by the simulator from the file",
          "[scenario_search]") {
    RandomWorkloadSpec r = spec(9, true);
    r.kernels = 10, r.max_blocks = 8, r.interval_percent = 80, r.window_percent = 60;
    const Workload w = random_workload(r, 9);
    const ScenarioSearch s = searched(w, Policy::chooser, 400);
    bool interior = false;  // some witness has a block time strictly inside its interval
    for (std::size_t op = 0; op < w.ops.size(); ++op) {
        const WitnessScenario x = s.witness(static_cast<int>(op));
        for (std::size_t k = 0; k < x.block_time.size(); ++k)
            for (const Time& t : x.block_time[k]) interior = interior || (w.ops[k].time.lo < t && t < w.ops[k].time.hi);
    }
    CHECK(interior);
    for (std::size_t op = 0; op < w.ops.size(); ++op) {
        const WitnessScenario x = s.witness(static_cast<int>(op));
        Workload copy = w;
        copy.scenario = fixed_scenario(w, x);
        const Workload back = load_workload_text(workload_to_toml(copy), "witness.toml");
        const Schedule replayed = simulate(back, scenario_for(back, {}, std::nullopt));
        CHECK(replayed.response(static_cast<int>(op)) == *s.best()[op]);
    }
}

TEST_CASE("scenario search: a budget that has run out stops it with replayed bounds only", "[scenario_search]") {
    const Workload w = random_workload(spec(3, true), 3);
    ScenarioSearch s(w, search::Options{Policy::chooser, 1});
    s.run(Budget::for_timeout(std::chrono::milliseconds(0)), 1000);
    CHECK(s.simulations() == 0);
    s.run(Budget(), 5);
    CHECK(s.simulations() == 5);
    require_replayed(w, s);
}

TEST_CASE("scenario search: a 3 x 8 camera pipeline with ranges and jitter, replayed and above the plain scenario",
          "[scenario_search]") {
    CameraSpec c;
    c.ranges = true;
    c.jitter = 1;
    const Workload w = camera_pipeline(c, 2);
    const ScenarioSearch s = searched(w, Policy::chooser, 120);
    CHECK(s.simulations() == 120);
    require_replayed(w, s);
    const Schedule base = plain(w, Policy::chooser);
    int above = 0;
    for (std::size_t op = 0; op < w.ops.size(); ++op) {
        CHECK(*s.best()[op] >= base.response(static_cast<int>(op)));
        above += *s.best()[op] > base.response(static_cast<int>(op));
    }
    CHECK(above > 0);
}

TEST_CASE("lower-bound search: a run split in parts by simulation counts finds what one run finds",
          "[scenario_search][reproducible]") {
    for (std::uint64_t seed : {2u, 5u, 11u}) {
        INFO("seed " << seed);
        const Workload w = random_workload(spec(seed, true), seed);
        const IntegerTimes times = integer_times(w);
        const long long count = 120;
        search::LowerBoundSearch whole(w, times, Policy::chooser, seed);
        whole.run(static_cast<long>(count), Budget());
        // Parts ending inside the random scenarios, at their end, inside the beam and inside
        // the local search, the last one unbounded.
        search::LowerBoundSearch split(w, times, Policy::chooser, seed);
        for (long long target : {7LL, 60LL, count, count + 5, count + 100, std::numeric_limits<long long>::max()})
            split.run_part(static_cast<long>(count), target, Budget());
        CHECK(split.simulations() == whole.simulations());
        for (std::size_t op = 0; op < w.ops.size(); ++op) {
            REQUIRE(split.best()[op] == whole.best()[op]);
            check_same_scenario(split.witness(static_cast<int>(op)), whole.witness(static_cast<int>(op)));
        }
    }
}
