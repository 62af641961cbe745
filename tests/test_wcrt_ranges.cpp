// Block-time intervals and issue windows: the SMT engine's grid maximum against exhaustive
// enumeration over the same grid (every launch order x every per-block duration x every issue
// instant on it), on seeded random workloads that mix them with copies, priorities, the NULL
// stream, after_stream_idle and several operations per stream; every witness replayed with
// its durations and instants. Also the interval anomaly of cases/anomalies/.
#include <catch2/catch.hpp>

#include "encode/block/block_problem.hpp"
#include "model/io/load_toml.hpp"
#include "model/generate/random_workload.hpp"
#include "model/io/write_toml.hpp"
#include "sim/simulate.hpp"
#include "solver/block/plan/auto_engine.hpp"
#include "solver/block/enumerate/enumerate.hpp"
#include "solver/block/smt/wcrt_smt.hpp"
#include "sim/witness.hpp"
#include "support.hpp"

using gpuwcrt::test::source_path;

using namespace gpuwcrt;

namespace {

struct RangeFeatureCount {
    int intervals = 0, windows = 0, copies = 0, priorities = 0, null_stream = 0, after_idle = 0, multi = 0;
    int workloads = 0, skipped = 0;
};

void grid_maximum_equals_enumeration(const Workload& w, const EngineOptions& o) {
    const EnumerationResult reference = enumerate_wcrt(w, o, Budget{});
    REQUIRE(reference.complete);
    const BlockProblem p = make_block_problem(w);
    EngineStats stats;
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        const int op = static_cast<int>(i);
        INFO("operation " << w.ops[i].name);
        const WcrtAnswer a = smt_maximise(w, p, op, o, Budget{}, stats);
        REQUIRE(a.lower);
        CHECK(exact_string(*a.lower) == exact_string(*reference.wcrt[i].lower));
        const Time upper = p.op_response_upper_bound(op);
        CHECK(upper >= *a.lower);
        // Exact only where the proven busy-time bound meets the grid maximum; otherwise the
        // answer names the grid.
        if (p.has_ranges()) CHECK((a.status == WcrtStatus::exact) == (*a.lower == upper));
        CHECK(a.status == reference.wcrt[i].status);
        if (a.status != WcrtStatus::exact && p.has_ranges())
            CHECK_THAT(a.unknown_reason, Catch::Contains("grid " + exact_string(p.grid())));
        // Both witnesses are real scenarios: replayed with their durations and instants.
        CHECK(simulate(w, witness_scenario(w, *a.witness)).response(op) == *a.lower);
        CHECK(simulate(w, witness_scenario(w, *reference.wcrt[i].witness)).response(op) == *a.lower);
        if (o.policy != Policy::chooser) {  // the SMs are the policy's own: replayed without them, the same
            Scenario own = witness_scenario(w, *a.witness);
            own.fixed_sm.clear();
            own.policy = o.policy;
            for (const BlockTiming& b : simulate(w, own).blocks) CHECK(b.sm == a.witness->sm[b.kernel][b.index]);
        }
    }
}

RangeFeatureCount ranges_differential(std::uint64_t first, std::uint64_t last) {
    RangeFeatureCount n;
    for (std::uint64_t seed = first; seed <= last; ++seed) {
        const Workload w = random_workload(test::ranges_spec(seed), seed);
        const BlockProblem p = make_block_problem(w);
        if (test::grid_combinations(p) > 256) {  // enumeration would take too long for the ctest budget
            n.skipped += 1;
            continue;
        }
        n.workloads += 1;
        n.intervals += p.has_intervals;
        n.windows += p.has_windows;
        n.copies += p.has_copies;
        n.priorities += p.has_priorities;
        n.null_stream += p.has_null;
        n.after_idle += p.has_after_idle;
        bool multi = false;
        for (int o = 0; o < p.ops(); ++o) multi = multi || p.op_pred[o] >= 0;
        n.multi += multi;
        EngineOptions o;
        o.policy = test::policy_for(seed);
        o.incumbent_simulations = seed % 2 == 0 ? 0 : -1;  // half: the solver finds every improvement
        INFO("seed " << seed << ", policy " << policy_name(o.policy) << "\n" << workload_to_toml(w));
        grid_maximum_equals_enumeration(w, o);
    }
    return n;
}

// Intervals and windows each in at least 25 workloads of every part of 50 seeds (at least 100
// of the 200), the other features mixed in.
void part(std::uint64_t first, std::uint64_t last) {
    const RangeFeatureCount n = ranges_differential(first, first + test::seeded(last - first + 1) - 1);
    WARN(n.workloads << " workloads (" << n.skipped << " skipped): intervals " << n.intervals << ", windows "
                     << n.windows << ", copies " << n.copies << ", priorities " << n.priorities << ", NULL "
                     << n.null_stream << ", after_stream_idle " << n.after_idle << ", multi-op streams " << n.multi);
    if (test::sanitized) return;
    CHECK(n.intervals >= 25);
    CHECK(n.windows >= 25);
    CHECK(n.skipped * 10 <= n.workloads);  // almost every seed is compared
    CHECK(n.copies * 5 >= n.workloads);
    CHECK(n.priorities * 5 >= n.workloads);
    CHECK(n.null_stream * 5 >= n.workloads);
    CHECK(n.after_idle * 5 >= n.workloads);
    CHECK(n.multi * 5 >= n.workloads);
}

}  // namespace

// The first part runs in the fast tier (and under the sanitizers); the rest only in the full suite.
TEST_CASE("SMT grid maximum equals grid enumeration with intervals and windows, seeds 1-50",
          "[wcrt][smt][differential][ranges]") {
    part(1, 50);
}
TEST_CASE("SMT grid maximum equals grid enumeration with intervals and windows, seeds 51-100",
          "[wcrt][smt][differential][ranges][slow]") {
    part(51, 100);
}
TEST_CASE("SMT grid maximum equals grid enumeration with intervals and windows, seeds 101-150",
          "[wcrt][smt][differential][ranges][slow]") {
    part(101, 150);
}
TEST_CASE("SMT grid maximum equals grid enumeration with intervals and windows, seeds 151-200",
          "[wcrt][smt][differential][ranges][slow]") {
    part(151, 200);
}

// Round-robin placement with intervals and windows (encode/block/time_indexed_round_robin.cpp):
// tiny workloads on 2 or 3 SMs, every feature of ranges_spec mixed in.
TEST_CASE("SMT grid maximum equals grid enumeration with round-robin placement, intervals and windows",
          "[wcrt][smt][differential][ranges][round-robin]") {
    int compared = 0, intervals = 0, windows = 0;
    for (std::uint64_t seed = 2001; seed < 2001 + test::seeded(40); ++seed) {
        RandomWorkloadSpec spec = test::ranges_spec(seed);
        spec.kernels = 2 + static_cast<int>(seed % 2);  // 2..3 operations
        spec.sms = 2 + static_cast<int>((seed / 7) % 2);
        const Workload w = random_workload(spec, seed);
        const BlockProblem p = make_block_problem(w);
        if (test::grid_combinations(p) > 128) continue;
        compared += 1;
        intervals += p.has_intervals;
        windows += p.has_windows;
        EngineOptions o;
        o.policy = Policy::round_robin;
        o.incumbent_simulations = seed % 2 == 0 ? 0 : -1;
        INFO("seed " << seed << ", round-robin\n" << workload_to_toml(w));
        grid_maximum_equals_enumeration(w, o);
    }
    if (test::sanitized) return;
    CHECK(compared >= 30);
    CHECK(intervals >= 10);
    CHECK(windows >= 10);
}

TEST_CASE("interval anomaly: the SMT engine finds the worst case of a shorter block time that simulate at hi misses",
          "[wcrt][smt][ranges][anomaly]") {
    const Workload w = load_workload_file(source_path("cases/anomalies/shorter-block-time-longer-response.toml"));
    const int h = *w.find_op("H");
    const int l = *w.find_op("L");
    REQUIRE(!w.ops[l].time.is_point());
    const Time at_hi = simulate(w, Scenario{}).response(h);  // every block at hi, file order
    // The anomaly itself: L's block time at lo (others as simulate) gives H a longer response.
    Scenario shorter;
    shorter.block_time = [&](int op, std::int64_t) { return op == l ? w.ops[l].time.lo : w.ops[op].time.hi; };
    CHECK(simulate(w, shorter).response(h) > at_hi);

    const BlockProblem p = make_block_problem(w);
    EngineStats stats;
    const WcrtAnswer a = smt_maximise(w, p, h, EngineOptions{}, Budget{}, stats);
    REQUIRE(a.lower);
    CHECK(*a.lower > at_hi);
    CHECK(*a.lower == *enumerate_wcrt(w, EngineOptions{}, Budget{}).wcrt[h].lower);
    // The witness chose a shorter block time for L and replays to the claimed response.
    REQUIRE(a.witness->block_time.size() > static_cast<std::size_t>(l));
    REQUIRE(a.witness->block_time[l].size() == 1);
    CHECK(a.witness->block_time[l][0] < w.ops[l].time.hi);
    CHECK(simulate(w, witness_scenario(w, *a.witness)).response(h) == *a.lower);
    // Not proven to be the worst case over real block times (docs/theory/encoding.md): unknown.
    CHECK(a.status == WcrtStatus::unknown);
    CHECK_THAT(a.unknown_reason, Catch::Contains("grid 1"));
}

TEST_CASE(
    "auto takes intervals with priorities: a replayed grid lower bound, a proven upper bound, never exact below it",
    "[wcrt][auto][ranges]") {
    // On this workload bounds proves upper bounds and the
    // exact and SMT grid searches give replayed lower bounds, whichever is largest.
    const Workload w = load_workload_file(source_path("cases/anomalies/supremum-not-attained.toml"));
    const int h = *w.find_op("H");
    for (const Policy policy : {Policy::chooser, Policy::round_robin}) {
        INFO("policy " << static_cast<int>(policy));
        EngineOptions o;
        o.policy = policy;
        const EngineRun r = AutoEngine().run(EngineRequest{w, {h}, o, {}, {}}, Budget{});
        const WcrtAnswer& a = r.answers[h];
        REQUIRE(a.lower);
        REQUIRE(a.upper);
        CHECK((a.lower_by == Provenance::bounds || a.lower_by == Provenance::exact || a.lower_by == Provenance::smt));
        CHECK(*a.lower == *enumerate_wcrt(w, o, Budget{}).wcrt[h].lower);
        CHECK(*a.upper >= *a.lower);
        CHECK((a.status == WcrtStatus::exact) == (*a.lower == *a.upper));
        CHECK(simulate(w, witness_scenario(w, *a.witness)).response(h) == *a.lower);
    }
}

TEST_CASE("enumeration refuses more grid combinations than its stated limit, at the operation", "[wcrt][ranges]") {
    // 8 blocks with 3 grid values each: 3^8 = 6561 > 4096 combinations.
    const Workload w = test::workload_from(
        "[[kernel]]\nname = \"K\"\nblocks = 8\nthreads = 256\nblock_time = [1, 2]\n"
        "[[kernel]]\nname = \"L\"\nblocks = 1\nthreads = 256\nblock_time = 1\nissue = 0.5\n");
    CHECK_THROWS_WITH(enumerate_wcrt(w, EngineOptions{}, Budget{}),
                      Catch::Contains("test.toml:1:1:") && Catch::Contains(std::to_string(max_grid_combinations)) &&
                          Catch::Contains("grid 1/2"));
}
