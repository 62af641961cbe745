// The SMT engine's operation-level families (priorities A1/A2, the NULL stream N1/N2, copies
// C1-C4, after_stream_idle, several operations per stream) against exhaustive enumeration on
// seeded random workloads, every witness replayed through the simulator.
#include <catch2/catch.hpp>

#include <array>

#include "encode/block/block_problem.hpp"
#include "model/generate/random_workload.hpp"
#include "model/io/write_toml.hpp"
#include "sim/simulate.hpp"
#include "solver/block/enumerate/enumerate.hpp"
#include "solver/block/smt/wcrt_smt.hpp"
#include "sim/witness.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

// Bits of the seed switch the features on independently, so that every combination occurs
// and each feature is asked for in half of the seeds; the draws decide whether a copy or an
// after_stream_idle operation actually appears (counted below).
RandomWorkloadSpec feature_spec(std::uint64_t seed) {
    RandomWorkloadSpec s;
    s.kernels = 2 + static_cast<int>(seed % 4);        // 2..5 operations
    s.streams = 1 + static_cast<int>((seed / 4) % 3);  // over 1..3 streams
    s.threads = {256, 512, 768, 1024};
    s.shared_kib = {0, 32, 48};
    s.max_blocks = 2;
    s.max_block_time = 3;
    s.block_time_denominator = seed % 5 == 0 ? 2 : 1;
    s.staggered_issue = (seed / 3) % 2 == 1;
    s.sms = 1 + static_cast<int>((seed / 7) % 3);  // 1..3 SMs
    s.copy_engines = seed % 11 == 0 ? 2 : 1;
    s.copy_percent = (seed / 2) % 2 ? 40 : 0;
    s.high_priority_streams = (seed / 8) % 2 && s.streams > 1 ? 1 : 0;
    s.null_stream = (seed / 16) % 2 == 1 && s.streams > 1;
    s.after_idle_percent = (seed / 32) % 2 ? 0 : 40;
    return s;
}

struct FeatureCount {
    int copies = 0, priorities = 0, null_stream = 0, after_idle = 0, multi_op_streams = 0, workloads = 0;
};

// The witness replays with its SMs fixed; with a fixed placement policy the SMs must also be
// the ones the policy itself picks: replayed without them, the same schedule.
void check_policy_placement(const Workload& w, const WitnessScenario& x, Policy policy) {
    CHECK_NOTHROW(require_policy_placement(w, x, policy));
}

void smt_equals_enumeration(const Workload& w, const EngineOptions& o) {
    const EnumerationResult reference = enumerate_wcrt(w, o, Budget{});
    REQUIRE(reference.complete);
    const BlockProblem p = make_block_problem(w);
    EngineStats stats;
    for (std::size_t op = 0; op < w.ops.size(); ++op) {
        INFO("operation " << w.ops[op].name);
        const WcrtAnswer a = smt_maximise(w, p, static_cast<int>(op), o, Budget{}, stats);
        REQUIRE(a.status == WcrtStatus::exact);
        REQUIRE(a.lower);
        CHECK(exact_string(*a.lower) == exact_string(*reference.wcrt[op].lower));
        CHECK(p.op_response_upper_bound(static_cast<int>(op)) >= *a.lower);
        // The witness is a real scenario: replayed, it gives the claimed response.
        const Schedule s = simulate(w, witness_scenario(w, *a.witness));
        CHECK(s.response(static_cast<int>(op)) == *a.lower);
        check_policy_placement(w, *a.witness, o.policy);
    }
}

FeatureCount differential(std::uint64_t first, std::uint64_t last) {
    FeatureCount n;
    for (std::uint64_t seed = first; seed <= last; ++seed) {
        const Workload w = random_workload(feature_spec(seed), seed);
        const BlockProblem p = make_block_problem(w);
        n.workloads += 1;
        n.copies += p.has_copies;
        n.priorities += p.has_priorities;
        n.null_stream += p.has_null;
        n.after_idle += p.has_after_idle;
        bool multi = false;
        for (int o = 0; o < p.ops(); ++o) multi = multi || p.op_pred[o] >= 0;
        n.multi_op_streams += multi;
        EngineOptions o;
        o.policy = test::policy_for(seed);
        o.incumbent_simulations = seed % 2 == 0 ? 0 : -1;  // half: the solver finds every improvement
        INFO("seed " << seed << ", policy " << policy_name(o.policy) << "\n" << workload_to_toml(w));
        smt_equals_enumeration(w, o);
    }
    // Each feature in at least a fifth of every part: at least 100 of the 500 workloads.
    CHECK(n.copies * 5 >= n.workloads);
    CHECK(n.priorities * 5 >= n.workloads);
    CHECK(n.null_stream * 5 >= n.workloads);
    CHECK(n.after_idle * 5 >= n.workloads);
    CHECK(n.multi_op_streams * 5 >= n.workloads);
    return n;
}

}  // namespace

TEST_CASE("SMT equals enumeration with copies, priorities, NULL, idle, seeds 1-100",
          "[wcrt][smt][differential][features][slow]") {
    differential(1, 100);
}
TEST_CASE("SMT equals enumeration with copies, priorities, NULL, idle, seeds 101-200",
          "[wcrt][smt][differential][features][slow]") {
    differential(101, 200);
}
TEST_CASE("SMT equals enumeration with copies, priorities, NULL, idle, seeds 201-300",
          "[wcrt][smt][differential][features][slow]") {
    differential(201, 300);
}
TEST_CASE("SMT equals enumeration with copies, priorities, NULL, idle, seeds 301-400",
          "[wcrt][smt][differential][features][slow]") {
    differential(301, 400);
}
TEST_CASE("SMT equals enumeration with copies, priorities, NULL, idle, seeds 401-500",
          "[wcrt][smt][differential][features][slow]") {
    differential(401, 500);
}

// Round-robin (encode/block/time_indexed_round_robin.cpp): the SM follows the previously
// dispatched block's across kernels, queues and instants. Tiny workloads on 2 or 3 SMs (on one
// SM every policy is the same), every feature drawn as above.
TEST_CASE("SMT equals enumeration with round-robin placement and copies, priorities, NULL, idle",
          "[wcrt][smt][differential][features][round-robin][slow]") {
    FeatureCount n;
    for (std::uint64_t seed = 1001; seed <= 1060; ++seed) {
        RandomWorkloadSpec spec = feature_spec(seed);
        spec.kernels = 2 + static_cast<int>(seed % 3);  // 2..4 operations
        spec.sms = 2 + static_cast<int>((seed / 7) % 2);
        spec.after_idle_percent = (seed / 5) % 2 ? 0 : 50;  // seed / 32 is constant over few seeds
        const Workload w = random_workload(spec, seed);
        const BlockProblem p = make_block_problem(w);
        n.workloads += 1;
        n.copies += p.has_copies;
        n.priorities += p.has_priorities;
        n.null_stream += p.has_null;
        n.after_idle += p.has_after_idle;
        EngineOptions o;
        o.policy = Policy::round_robin;
        o.encoding = EncodingChoice::time_indexed;  // kernel-only workloads too (automatic: event)
        o.incumbent_simulations = seed % 2 == 0 ? 0 : -1;
        INFO("seed " << seed << ", round-robin\n" << workload_to_toml(w));
        smt_equals_enumeration(w, o);
    }
    CHECK(n.copies * 6 >= n.workloads);
    CHECK(n.priorities * 6 >= n.workloads);
    CHECK(n.null_stream * 6 >= n.workloads);
    CHECK(n.after_idle * 6 >= n.workloads);
}

TEST_CASE("the SMT engine refuses the event encoding for these features, naming them, and takes round-robin",
          "[wcrt][smt][features]") {
    RandomWorkloadSpec spec = feature_spec(2);  // copies asked for
    spec.copy_percent = 100;
    const Workload w = random_workload(spec, 2);
    const BlockProblem p = make_block_problem(w);
    REQUIRE(p.has_copies);
    EngineStats stats;
    EngineOptions rr;
    rr.policy = Policy::round_robin;
    CHECK(smt_maximise(w, p, 0, rr, Budget{}, stats).status == WcrtStatus::exact);
    EngineOptions event;
    event.encoding = EncodingChoice::event;
    CHECK_THROWS_WITH(smt_certify(w, p, 0, Time(1), event, Budget{}, stats),
                      Catch::Contains("time-indexed") && Catch::Contains("copies"));
    // Any placement is accepted and answers exactly.
    CHECK(smt_maximise(w, p, 0, EngineOptions{}, Budget{}, stats).status == WcrtStatus::exact);
}
