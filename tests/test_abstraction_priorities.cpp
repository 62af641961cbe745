// The interval abstraction (--engine bounds) with two EE queues (A1/A2: a high-priority kernel
// interrupts a low one's dispatch between blocks) and the NULL stream (N1/N2), against the
// exhaustive enumeration and the simulator: UB >= every scenario's response >= replayed LB.
#include <catch2/catch.hpp>

#include <random>

#include "model/generate/random_workload.hpp"
#include "sim/simulate.hpp"
#include "bounds/abstraction/bounds.hpp"
#include "solver/block/enumerate/enumerate.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

using test::random_scenario;

// Small workloads with priorities or a NULL stream (or both) beside every other feature.
RandomWorkloadSpec spec(std::uint64_t seed, bool ranges) {
    RandomWorkloadSpec s;
    s.kernels = 3 + static_cast<int>(seed % 3);        // 3..5 operations
    s.streams = 2 + static_cast<int>((seed / 3) % 2);  // over 2..3 streams
    s.shared_kib = {0, 16, 32};
    s.registers = {0, 32};
    s.max_blocks = 4;
    s.max_block_time = 3;
    s.block_time_denominator = seed % 5 == 0 ? 2 : 1;
    s.staggered_issue = seed % 2 == 1;
    s.copy_percent = 20;
    s.after_idle_percent = 15;
    switch (seed % 3) {
        case 0:
            s.high_priority_streams = 1;
            break;
        case 1:
            s.null_stream = true;
            break;
        default:
            s.high_priority_streams = 1, s.null_stream = true;
            break;
    }
    if (seed % 7 == 0) s.sms = 3;
    if (ranges) {
        s.interval_percent = 40;
        s.window_percent = 40;
    }
    return s;
}

BoundsOptions priority_options(std::uint64_t seed) {
    BoundsOptions b;
    b.lower_bound_simulations = 40;
    b.initial_states = seed % 2 ? 1 : 2;
    b.max_states = seed % 2 ? 1 : 8;
    b.partial_cap = seed % 2 ? 1 : 8;
    b.max_beam_width = 4;
    return b;
}

void require_replayed_lower_bounds(const Workload& w, const BoundsResult& r) {
    for (const WcrtAnswer& a : r.wcrt) {
        INFO("operation " << w.ops[a.op].name);
        REQUIRE(a.upper);
        REQUIRE(a.lower);
        REQUIRE(a.witness);
        CHECK(simulate(w, witness_scenario(w, *a.witness)).response(a.op) == *a.lower);
        CHECK(*a.lower <= *a.upper);
    }
}

// UB >= enumeration's exact WCRT >= replayed LB for every operation of w; returns how many
// upper bounds equal the exact WCRT.
int check_against_enumeration(const Workload& w, std::uint64_t seed) {
    EngineOptions o;
    const EnumerationResult ref = enumerate_wcrt(w, o, Budget{});
    REQUIRE(ref.complete);
    const BoundsResult r = abstraction_bounds(w, o, Budget{}, priority_options(seed));
    require_replayed_lower_bounds(w, r);
    int exact = 0;
    for (std::size_t op = 0; op < w.ops.size(); ++op) {
        INFO("operation " << w.ops[op].name);
        CHECK(*r.wcrt[op].upper >= *ref.wcrt[op].lower);
        CHECK(*r.wcrt[op].lower <= *ref.wcrt[op].lower);
        exact += *r.wcrt[op].upper == *ref.wcrt[op].lower;
    }
    return exact;
}

}  // namespace

TEST_CASE("bounds with priorities and the NULL stream: UB >= enumeration >= replayed LB, 600 point-time workloads",
          "[slow]") {
    int exact = 0, total = 0;
    for (std::uint64_t seed = 1; seed <= 600; ++seed) {
        const Workload w = random_workload(spec(seed, false), 30000 + seed);
        INFO("seed " << seed);
        exact += check_against_enumeration(w, seed);
        total += static_cast<int>(w.ops.size());
    }
    // Precision, not soundness: the abstraction must not degenerate into "no information".
    CHECK(exact * 2 > total);
}

TEST_CASE(
    "bounds with priorities and the NULL stream: UB covers simulated scenarios of 300 interval and window workloads") {
    EngineOptions o;
    std::mt19937_64 rng(1212);
    for (std::uint64_t seed = 1; seed <= test::seeded(300); ++seed) {
        const Workload w = random_workload(spec(seed, true), 40000 + seed);
        INFO("seed " << seed);
        const BoundsResult r = abstraction_bounds(w, o, Budget{}, priority_options(seed));
        require_replayed_lower_bounds(w, r);
        for (int i = 0; i < 40; ++i) {
            const Schedule s = random_scenario(w, rng, 4);
            for (std::size_t op = 0; op < w.ops.size(); ++op) {
                INFO("operation " << w.ops[op].name << ", random scenario " << i);
                CHECK(s.response(static_cast<int>(op)) <= *r.wcrt[op].upper);
            }
        }
    }
}

TEST_CASE("bounds: a high-priority kernel interrupting a low one's dispatch is bounded (A2)") {
    // L (low, 8 blocks, two per SM on 2 SMs) dispatches four blocks at 0; H (high) issued at 0.5
    // takes two of the four slots freed at 1 before L's blocks 4..7: L ends at 3, not 2.
    const Workload w = test::workload_from(R"(
[[stream]]
name = "lo"
[[stream]]
name = "hi"
priority = "high"
[[kernel]]
name = "L"
stream = "lo"
blocks = 8
threads = 1024
block_time = 1
[[kernel]]
name = "H"
stream = "hi"
blocks = 2
threads = 1024
block_time = 1
issue = 0.5
)");
    EngineOptions o;
    const EnumerationResult ref = enumerate_wcrt(w, o, Budget{});
    const BoundsResult r = abstraction_bounds(w, o, Budget{});
    require_replayed_lower_bounds(w, r);
    const int l = *w.find_op("L");
    CHECK(*ref.wcrt[l].lower == Time(3));
    CHECK(*r.wcrt[l].upper == Time(3));
    CHECK(r.wcrt[l].status == WcrtStatus::exact);
}

// Rules 3 and 4 (docs/theory/abstraction.md) bound units and low blocks by copies still to come: many
// copies, a high-priority stream and no NULL stream, where both rules apply most often.
TEST_CASE("bounds with copies ahead of high kernels: UB >= enumeration >= replayed LB, 400 point-time workloads",
          "[slow]") {
    for (std::uint64_t seed = 1; seed <= 400; ++seed) {
        RandomWorkloadSpec s = spec(3 * seed, false);  // the priority variant, no NULL stream
        s.kernels = 4 + static_cast<int>(seed % 2);
        s.copy_percent = 45;
        s.copy_engines = seed % 4 == 0 ? 2 : 1;
        INFO("seed " << seed);
        check_against_enumeration(random_workload(s, 50000 + seed), seed);
    }
}
