// The interference bound (bounds/interference/, docs/theory/interference.md): on small workloads with
// every feature it accepts, at least the enumeration's maximum; on large ranged camera
// pipelines, at least every sampled scenario's response; each test-only mutation of the
// argument makes the differential check fail.
#include <catch2/catch.hpp>

#include <random>

#include "bounds/interference/interference.hpp"
#include "encode/block/block_problem.hpp"
#include "model/generate/camera_pipeline.hpp"
#include "model/generate/random_workload.hpp"
#include "model/io/write_toml.hpp"
#include "sim/simulate.hpp"
#include "solver/block/enumerate/enumerate.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

// Small workloads: priorities, copies on 1–2 engines, 1–3 SMs, staggered issues, after_stream_idle,
// registers and shared memory; no NULL stream (out of the argument's scope).
RandomWorkloadSpec point_spec(std::uint64_t seed) {
    RandomWorkloadSpec s;
    s.kernels = 3 + static_cast<int>(seed % 3);
    s.streams = 2 + static_cast<int>((seed / 3) % 2);
    s.shared_kib = {0, 16, 32};
    s.registers = {0, 32};
    s.max_blocks = 4;
    s.max_block_time = 3;
    s.block_time_denominator = seed % 5 == 0 ? 2 : 1;
    s.staggered_issue = seed % 2 == 1;
    s.copy_percent = 25;
    s.copy_engines = seed % 4 == 0 ? 2 : 1;
    s.after_idle_percent = 15;
    s.high_priority_streams = seed % 3 == 0 ? 0 : 1;
    s.sms = seed % 7 == 0 ? 3 : 1 + static_cast<int>((seed / 2) % 2);
    return s;
}

// Operations whose interference bound lies below the enumeration's maximum (each a bug).
int below_enumeration(const Workload& w, const InterferenceOptions& o) {
    const EnumerationResult ref = enumerate_wcrt(w, EngineOptions{}, Budget{});
    REQUIRE(ref.complete);
    const InterferenceBounds b = interference_bounds(w, Budget{}, o);
    int below = 0;
    for (std::size_t op = 0; op < w.ops.size(); ++op) {
        REQUIRE(b.response[op]);
        below += *b.response[op] < *ref.wcrt[op].lower;
    }
    return below;
}

}  // namespace

TEST_CASE("interference bound >= enumeration's WCRT on 500 point-time workloads with priorities and copies", "[slow]") {
    for (std::uint64_t seed = 1; seed <= 500; ++seed) {
        const Workload w = random_workload(point_spec(seed), 81000 + seed);
        INFO("seed " << seed << "\n" << workload_to_toml(w));
        CHECK(below_enumeration(w, {}) == 0);
    }
}

TEST_CASE("interference bound >= grid maximum on enumerable interval and window workloads") {
    int compared = 0;
    for (std::uint64_t seed = 1; seed <= 160; ++seed) {
        RandomWorkloadSpec s = test::ranges_spec(seed);
        s.null_stream = false;
        const Workload w = random_workload(s, 82000 + seed);
        if (test::grid_combinations(make_block_problem(w)) > 256) continue;
        ++compared;
        INFO("seed " << seed << "\n" << workload_to_toml(w));
        CHECK(below_enumeration(w, {}) == 0);
    }
    CHECK(compared >= 100);
}

TEST_CASE("every mutation of the interference argument falls below some enumerated WCRT", "[mutation]") {
    for (const InterferenceMutation m :
         {InterferenceMutation::no_carry_in, InterferenceMutation::higher_once, InterferenceMutation::no_own_blocks,
          InterferenceMutation::no_higher_heads, InterferenceMutation::half_waves,
          InterferenceMutation::no_higher_tails, InterferenceMutation::no_solo_others,
          InterferenceMutation::no_heading_carry, InterferenceMutation::no_foreign_blocks}) {
        INFO("mutation " << static_cast<int>(m));
        int below = 0;
        for (std::uint64_t seed = 1; seed <= 300 && below == 0; ++seed)
            below += below_enumeration(random_workload(point_spec(seed), 81000 + seed), {64, 16, m, {}});
        CHECK(below > 0);
    }
}

TEST_CASE("interference bound: a low kernel behind a high stream's kernels, derived by hand") {
    // TX2 (2 SMs, 2048 threads each). L (low, 4 blocks of 1024 threads, C = 1) and H1, H2 (high,
    // one stream, 4 blocks of 1024 threads, C = 1 each), all issued at 0. Only threads bind (the
    // resident-block slot: 12 blocks never fill 32). A 1024-thread head is blocked by more than
    // 2048 − 1024 threads in use, a sum of 1024-thread blocks: 2048, so each block weighs 1/2.
    // First sweep (the horizon is 12; L, then H1, H2, each using the others' latest bounds):
    // - L waits at most for its 3 other blocks and H1's and H2's 8 (both can join before L's last
    //   dispatch): 11/2 on 2 SMs = 2.75, up to the tick 3; then C: L ≤ 4.
    // - H1: its own 3 other blocks alone never block it (an SM full in threads holds 2048 of them,
    //   3 blocks of 1024 fill one SM at most, and there are 2), so the time it heads with only its
    //   own blocks running is 0; what else can run while it heads is L's blocks running when it
    //   joined (A2: L dispatches nothing more), which end within L's block time: a wait of at most
    //   1, then its time 1: H1 ≤ 2.
    // - H2 alone joins by 2 (H1 done), waits at most 1 for the same reason, then 1: done ≤ 4, and
    //   as the end of the segment H1, H2 from H1's join at 0: their times 1 + 1 and L's block
    //   time once per wait (2): H2 ≤ 4.
    //   The second sweep changes nothing.
    // The enumeration's WCRTs are 3, 1 and 2: the high-priority kernels dispatch first (A2), H1 in
    // [0, 1], H2 in [1, 2], L in [2, 3].
    const Workload w = test::workload_from(R"(
[[stream]]
name = "lo"
[[stream]]
name = "hi"
priority = "high"
[[kernel]]
name = "L"
stream = "lo"
blocks = 4
threads = 1024
block_time = 1
[[kernel]]
name = "H1"
stream = "hi"
blocks = 4
threads = 1024
block_time = 1
[[kernel]]
name = "H2"
stream = "hi"
blocks = 4
threads = 1024
block_time = 1
)");
    const InterferenceBounds b = interference_bounds(w, Budget{});
    CHECK(*b.response[*w.find_op("L")] == Time(4));
    CHECK(*b.response[*w.find_op("H1")] == Time(2));
    CHECK(*b.response[*w.find_op("H2")] == Time(4));
    CHECK(b.sweeps == 2);
    const EnumerationResult ref = enumerate_wcrt(w, EngineOptions{}, Budget{});
    for (std::size_t op = 0; op < w.ops.size(); ++op) CHECK(*b.response[op] >= *ref.wcrt[op].lower);
}

TEST_CASE("interference bound: a NULL stream is out of its scope") {
    RandomWorkloadSpec s = point_spec(1);
    s.null_stream = true;
    const InterferenceBounds b = interference_bounds(random_workload(s, 7), Budget{});
    for (const auto& r : b.response) CHECK(!r);
}

TEST_CASE("interference bound on ranged camera pipelines with jitter: no sampled scenario above it", "[slow]") {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        CameraSpec spec;
        spec.streams = 3 + static_cast<int>(seed % 3);
        spec.kernels = 6 + static_cast<int>(seed % 4);
        spec.ranges = true;
        spec.jitter = Time(static_cast<long>(1 + seed % 2));
        const Workload w = camera_pipeline(spec, seed);
        const InterferenceBounds b = interference_bounds(w, Budget{});
        std::mt19937_64 rng(seed);
        const int grids[] = {1, 3, 20, 97};
        for (int i = 0; i < 200; ++i) {
            const Schedule sc = test::random_scenario(w, rng, grids[i % 4], test::policy_for(seed + i));
            for (std::size_t op = 0; op < w.ops.size(); ++op) {
                INFO("camera seed " << seed << ", operation " << w.ops[op].name << ", scenario " << i);
                REQUIRE(b.response[op]);
                CHECK(sc.response(static_cast<int>(op)) <= *b.response[op]);
            }
        }
    }
}
