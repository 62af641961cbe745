// Huge but valid numbers: the RTA stays exact and fast on grids of up to 2^63 − 1
// blocks, the simulator refuses workloads above its documented block limit instead of running
// for hours, and 64-bit overflow in slot counts is an input error, never exit 4.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>

#include "model/generate/seeded_pick.hpp"
#include "bounds/rta/rta.hpp"
#include "sim/simulate.hpp"
#include "support.hpp"

using namespace gpuwcrt;
using gpuwcrt::test::run_cli;

namespace {

// Algorithm 2 slot by slot, as the thesis describes it: each slot of kernel i starts at the
// later of t_a and the earliest instant a slot is free, t_a never decreases, and f_i is the
// last start plus C. No merging of equal instants and no skipping of rounds.
std::vector<Time> slot_by_slot(const std::vector<RtaKernel>& kernels, std::int64_t g_max) {
    std::multiset<Time> free_at;
    for (std::int64_t s = 0; s < g_max; ++s) free_at.insert(Time(0));
    Time t_a = 0;
    std::vector<Time> f;
    for (const RtaKernel& k : kernels) {
        t_a = std::max(t_a, k.release);
        for (std::int64_t s = 0; s < k.slots; ++s) {
            auto first = free_at.begin();
            t_a = std::max(t_a, *first);
            free_at.erase(first);
            free_at.insert(t_a + k.c);
        }
        f.push_back(t_a + k.c);
    }
    return f;
}

}  // namespace

TEST_CASE("Algorithm 2's jump over repeated rounds equals the slot-by-slot algorithm", "[rta][scale]") {
    // Kernels with many slots against a small g_max make the jump fire, with other kernels'
    // later entries (long C) bounding it; both time types (64-bit and rational) are exercised.
    for (std::uint64_t seed = 1; seed <= 300; ++seed) {
        std::mt19937_64 rng(seed);
        const std::int64_t g_max = seeded_pick(rng, 1, 6);
        const std::int64_t den = seed % 3 == 0 ? 1 : seeded_pick(rng, 2, 7);
        std::vector<RtaKernel> ks;
        const int n = static_cast<int>(seeded_pick(rng, 1, 6));
        Time release = 0;
        for (int i = 0; i < n; ++i) {
            if (seeded_pick(rng, 0, 2) == 0) release += Time(seeded_pick(rng, 0, 20), den);
            const bool big = seeded_pick(rng, 0, 1) == 1;
            ks.push_back({release, Time(seeded_pick(rng, 1, 30), den),
                          big ? seeded_pick(rng, 20, 400) : seeded_pick(rng, 1, 8)});
        }
        INFO("seed " << seed);
        CHECK(rta_algorithm2(ks, g_max) == slot_by_slot(ks, g_max));
    }
}

TEST_CASE("Algorithm 2 on 2^63 - 1 slots is exact and immediate", "[rta][scale]") {
    const std::int64_t max = INT64_MAX;
    // One kernel alone: ⌈slots / g_max⌉ rounds of C.
    const std::vector<Time> one = rta_algorithm2({{Time(0), Time(3, 2), max}}, 4);
    CHECK(one == std::vector<Time>{Time(3, 2) * ((BigInt(max) + 3) / 4)});
    // Behind a short kernel that holds one slot for a while, and with a release in the middle.
    // The second kernel runs one block at a time in [1, 10) (9 blocks) while the first holds the
    // other slot, then two at a time: f = 10 + ⌈(S − 9) / 2⌉. Checked against the slot-by-slot
    // algorithm for a small S first, so the formula itself is not taken on trust.
    auto two = [](std::int64_t s) { return std::vector<RtaKernel>{{Time(0), Time(10), 1}, {Time(1), Time(1), s}}; };
    auto formula = [](std::int64_t s) { return Time(10) + Time((BigInt(s) - 9 + 1) / 2); };
    REQUIRE(slot_by_slot(two(101), 2) == std::vector<Time>{Time(10), formula(101)});
    CHECK(rta_algorithm2(two(max), 2) == std::vector<Time>{Time(10), formula(max)});
}

// Slot counts beyond 64 bits cannot come from a file any more: blocks <= 2^40 and blocks x
// threads <= 2^62 (docs/decisions/0012-input-limits-and-names.md) are checked while loading, so the loader answers
// first.
TEST_CASE("rta: a grid of 2^63 - 1 blocks is an input error at the kernel, not exit 4", "[rta][scale][cli]") {
    const std::string dir = gpuwcrt::test::temp_dir();
    const std::string file = dir + "/huge.toml";
    {
        std::ofstream(file) << "[[kernel]]\nname = \"small\"\nblocks = 1\nthreads = 512\nblock_time = 1\n\n"
                               "[[kernel]]\nname = \"huge\"\nblocks = 9223372036854775807\nthreads = 1024\n"
                               "block_time = 1\n";
    }
    const auto r = run_cli({"rta", file});
    CHECK(r.exit_code == 3);
    CHECK(r.err == file + ":9:10: 'blocks' must be between 1 and 2^40, got 9223372036854775807\n");
    CHECK(r.out.empty());
}

TEST_CASE("simulate refuses more blocks than its documented limit, at the kernel that passes it", "[sim][scale][cli]") {
    const std::string dir = gpuwcrt::test::temp_dir();
    const std::string file = dir + "/grid.toml";
    {
        std::ofstream(file) << "[[kernel]]\nname = \"A\"\nblocks = " << max_simulated_blocks - 1
                            << "\nthreads = 1024\nblock_time = 1\n\n"
                               "[[kernel]]\nname = \"B\"\nblocks = 2\nthreads = 1024\nblock_time = 1\n";
    }
    const auto r = run_cli({"simulate", file});
    CHECK(r.exit_code == 3);
    CHECK(r.out.empty());
    CHECK(r.err.find(file + ":7:1: kernel 'B'") != std::string::npos);
    CHECK(r.err.find(std::to_string(max_simulated_blocks) + " blocks in total") != std::string::npos);
    // The same grid sizes are fine for the RTA, and fast.
    const auto rta = run_cli({"rta", file});
    CHECK(rta.exit_code == 0);
    // limit − 1 blocks of 1024 threads on 4 slots, then 2 more: ⌈(limit + 1) / 4⌉ rounds of 1.
    CHECK(rta.out.find(std::to_string((max_simulated_blocks + 1 + 3) / 4)) != std::string::npos);
}

TEST_CASE("outputs that list every block are refused above their documented sizes, before any work",
          "[sim][scale][cli]") {
    const std::string dir = gpuwcrt::test::temp_dir();
    const std::string file = dir + "/wide.toml";
    std::ofstream(file) << "[[kernel]]\nname = \"A\"\nblocks = 1000001\nthreads = 256\nblock_time = 1\n";
    const std::string svg = dir + "/chart.svg";
    auto r = run_cli({"simulate", file, "--svg", svg});
    CHECK(r.exit_code == 3);
    CHECK(r.err == "gpuwcrt: --svg: the workload has 1000001 blocks; a chart is drawn for at most 20000\n");
    CHECK_FALSE(std::filesystem::exists(svg));
    r = run_cli({"simulate", file, "--json"});
    CHECK(r.exit_code == 3);
    CHECK(r.err.rfind("gpuwcrt: --json: the workload has 1000001 blocks; every block is listed for at most 1000000",
                      0) == 0);
    CHECK(r.out.empty());
    r = run_cli({"simulate", file, "--blocks"});
    CHECK(r.exit_code == 3);
    CHECK(r.err.rfind("gpuwcrt: --blocks: ", 0) == 0);
    r = run_cli({"wcrt", file, "--svg", svg, "--timeout", "1"});
    CHECK(r.exit_code == 3);
    CHECK(r.err.rfind("gpuwcrt: --svg: ", 0) == 0);
    // The plain table has no such limit.
    r = run_cli({"simulate", file});
    CHECK(r.exit_code == 0);
}
