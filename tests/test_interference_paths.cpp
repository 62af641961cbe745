// The interference bound's fast paths (bounds/interference/) against the plain computations they
// stand for: checked 128-bit sums against arbitrary precision (the same bounds), candidates by
// their stream's latest completion against each kernel's own completion end (never looser), and
// segments skipped when they cannot tighten against every segment computed (the same bounds);
// and `--engine bounds` above the abstraction's operations, which runs on the interference bound.
#include <catch2/catch.hpp>

#include "bounds/abstraction/bounds.hpp"
#include "bounds/interference/interference.hpp"
#include "bounds/interference/wide_int.hpp"
#include "model/generate/camera_pipeline.hpp"
#include "model/generate/random_workload.hpp"
#include "model/io/write_toml.hpp"
#include "solver/block/enumerate/enumerate.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

// Workloads where candidates, segments and rooms vary: random ones with priorities, copies,
// staggered issues, after_stream_idle, shared memory and registers on 1–3 SMs, and ranged
// camera pipelines with jitter.
std::vector<Workload> fast_path_workloads() {
    std::vector<Workload> out;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        RandomWorkloadSpec s;
        s.kernels = 8 + static_cast<int>(seed % 17);
        s.streams = 2 + static_cast<int>(seed % 5);
        s.shared_kib = {0, 16, 32};
        s.registers = {0, 32};
        s.max_blocks = 8;
        s.staggered_issue = seed % 2 == 0;
        s.copy_percent = 20;
        s.after_idle_percent = 15;
        s.high_priority_streams = seed % 3 == 0 ? 0 : 1;
        s.sms = 1 + static_cast<int>(seed % 3);
        out.push_back(random_workload(s, 93000 + seed));
    }
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        CameraSpec spec;
        spec.streams = 3 + static_cast<int>(seed);
        spec.kernels = 6 + static_cast<int>(seed);
        spec.ranges = true;
        spec.jitter = Time(2);
        out.push_back(camera_pipeline(spec, seed));
    }
    return out;
}

// Every upper end two runs hold, equal.
void require_same_bounds(const InterferenceBounds& a, const InterferenceBounds& b) {
    REQUIRE(a.response == b.response);
    REQUIRE(a.done == b.done);
    REQUIRE(a.ends.size() == b.ends.size());
    for (std::size_t i = 0; i < a.ends.size(); ++i) {
        INFO("operation " << i);
        CHECK(a.ends[i].join == b.ends[i].join);
        CHECK(a.ends[i].behind == b.ends[i].behind);
        CHECK(a.ends[i].wait == b.ends[i].wait);
        CHECK(a.ends[i].solo == b.ends[i].solo);
    }
}

}  // namespace

TEST_CASE("interference bound: checked 128-bit sums give the bounds of arbitrary precision") {
    InterferenceOptions exact;
    exact.exact_arithmetic = true;
    for (const Workload& w : fast_path_workloads()) {
        INFO(workload_to_toml(w));
        require_same_bounds(interference_bounds(w, Budget{}), interference_bounds(w, Budget{}, exact));
    }
}

TEST_CASE("interference bound: sums beyond 128 bits are computed with arbitrary precision") {
    CHECK_THROWS_AS(interference::wide_mul(interference::Wide(1) << 64, interference::Wide(1) << 63),
                    interference::WideOverflow);
    CHECK_THROWS_AS(interference::wide_add(~(interference::Wide(1) << 127), 1), interference::WideOverflow);
    CHECK(interference::wide_mul(interference::Wide(1) << 62, interference::Wide(1) << 62) == interference::Wide(1)
                                                                                                  << 124);
    // Capacities near 2^40 with needs whose GCD is 1: the weights' unit is the LCM of rooms near
    // 2^40 each. With block times of 1000 the weighted sums pass 2^127 and the 128-bit sums
    // overflow; with block times of 1 they fit, but not below the bound that lets them go
    // unchecked.
    for (const char* time : {"1000", "1"}) {
        const Workload w = test::workload_from(std::string(R"(
[platform]
sms = 1
threads_per_sm = 1099511627776
threads_per_block_max = 1099511627776
shared_mem_per_sm = 1099511627775
shared_mem_per_block_max = 1099511627775
registers_per_sm = 1099511627773
registers_per_block_max = 1099511627773
[[stream]]
name = "a"
[[stream]]
name = "b"
[[kernel]]
name = "A"
stream = "a"
blocks = 3
threads = 400000000001
shared_mem = 400000000003
registers = 1
block_time = )") + time + R"(
[[kernel]]
name = "B"
stream = "b"
blocks = 3
threads = 400000000002
shared_mem = 400000000005
registers = 1
block_time = )" + time + "\n");
        InterferenceOptions exact;
        exact.exact_arithmetic = true;
        const InterferenceBounds fast = interference_bounds(w, Budget{}),
                                 slow = interference_bounds(w, Budget{}, exact);
        INFO("block time " << time);
        REQUIRE(fast.response[0]);
        require_same_bounds(fast, slow);
    }
}

TEST_CASE("interference bound: candidates by their stream's latest completion are never looser") {
    InterferenceOptions scan;
    scan.scan_candidates = true;
    int tighter = 0;
    for (const Workload& w : fast_path_workloads()) {
        INFO(workload_to_toml(w));
        const InterferenceBounds fast = interference_bounds(w, Budget{}),
                                 plain = interference_bounds(w, Budget{}, scan);
        for (std::size_t i = 0; i < w.ops.size(); ++i) {
            REQUIRE(fast.response[i]);
            REQUIRE(plain.response[i]);
            CHECK(*fast.response[i] <= *plain.response[i]);
            CHECK(*fast.done[i] <= *plain.done[i]);
            tighter += *fast.response[i] < *plain.response[i];
        }
    }
    INFO(tighter << " responses tighter");
    SUCCEED();
}

TEST_CASE("interference bound: segments skipped when they cannot tighten change no bound") {
    InterferenceOptions every;
    every.every_segment = true;
    for (const Workload& w : fast_path_workloads()) {
        INFO(workload_to_toml(w));
        require_same_bounds(interference_bounds(w, Budget{}), interference_bounds(w, Budget{}, every));
    }
}

TEST_CASE("bounds above the abstraction's operations: every operation bounded, also when stopped at once") {
    RandomWorkloadSpec spec;
    spec.kernels = 150;
    spec.streams = 6;
    spec.max_blocks = 4;
    spec.staggered_issue = true;
    spec.copy_percent = 10;
    spec.high_priority_streams = 2;
    spec.interval_percent = 30;
    const Workload w = random_workload(spec, 95001);
    const InterferenceBounds interference = interference_bounds(w, Budget{});
    std::mt19937_64 rng(5);
    std::vector<Schedule> runs;
    for (int i = 0; i < 20; ++i) runs.push_back(test::random_scenario(w, rng, 3));
    BoundsOptions beyond;
    beyond.max_explored_operations = 128;  // the path of larger workloads, on one cheap to bound
    for (const int timeout_ms : {60000, 0}) {
        INFO("timeout " << timeout_ms << " ms");
        const BoundsResult r =
            abstraction_bounds(w, EngineOptions{}, Budget::for_timeout(std::chrono::milliseconds(timeout_ms)), beyond);
        REQUIRE(r.steps.size() == 1);
        for (std::size_t op = 0; op < w.ops.size(); ++op) {
            REQUIRE(r.wcrt[op].upper);
            if (timeout_ms > 0) CHECK(*r.wcrt[op].upper == *interference.response[op]);
            for (const Schedule& run : runs) CHECK(run.response(static_cast<int>(op)) <= *r.wcrt[op].upper);
        }
    }
}
