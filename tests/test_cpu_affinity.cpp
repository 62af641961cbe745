// CPU tasks allowed on several cores (docs/decisions/0034-cpu-affinity.md): the TOML key, the
// bound (the least over the affinity's cores of the bound counting every task allowed there)
// against hand derivations and against the CPU simulation with affinities on many seeded task
// sets, and the mutations the simulation must catch.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "bounds/cpu/cpu_rta.hpp"
#include "model/io/write_toml.hpp"
#include "sim/cpu/simulate_cpu.hpp"
#include "solver/cpu/cpu_side.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

CpuRtaTask affinity_test_task(std::vector<int> cores, std::int64_t prio, int period, int execution) {
    return {std::move(cores), prio, Time(period), Time(execution), Time(0), false, {}};
}

}  // namespace

// H (priority 2, T 10, C 4) may run on cores 0 and 1; L (priority 1, T 20, C 2) is pinned to 0,
// P (priority 3, T 10, C 5) to 1. H: on core 0 nothing of its priority or more, R = 4; on core 1
// P delays it, R = 4 + 5 = 9: the least, 4. L: on core 0 H is allowed and counted fully,
// R = 2 + ⌈(R + R_H − C_H)/10⌉·4 = 6, and it is not a uniprocessor (H may run there), so only
// the jitter-based argument applies. The simulation: H takes core 0 at 0, L waits for it: 6.
TEST_CASE("CPU affinity: the least bound over the cores, derived by hand", "[cpu_side]") {
    const std::vector<CpuRtaTask> ts{affinity_test_task({0, 1}, 2, 10, 4), affinity_test_task({0}, 1, 20, 2),
                                     affinity_test_task({1}, 3, 10, 5)};
    const auto b = cpu_response_bounds(ts);
    CHECK(b[0].response == Time(4));
    CHECK(b[1].response == Time(6));
    CHECK(b[1].by == CpuArgument::jitter);
    CHECK(b[2].response == Time(5));
    CpuRtaMutation largest;
    largest.max_over_cores = true;
    CHECK(cpu_response_bounds(ts, largest)[0].response == Time(9));
    std::vector<CpuSimTask> sim{
        {2, Time(10), Time(0), 0, {0, 1}}, {1, Time(20), Time(0), 1, {0}}, {3, Time(10), Time(0), 2, {1}}};
    const auto times = [&](std::size_t i, std::int64_t) { return CpuJobTimes{ts[i].pre, Time(0), Time(0)}; };
    const CpuSimResult r = simulate_cpu(sim, times, Time(40));
    CHECK(r.response[0] == Time(4));
    CHECK(r.response[1] == Time(6));
    CHECK(r.response[2] == Time(5));
}

namespace {

struct AffinitySet {
    std::vector<CpuRtaTask> rta;
    std::vector<CpuSimTask> sim;
};

// 2-5 tasks on 2-3 cores, each allowed on a random non-empty set of them taken in a random order,
// some suspending.
AffinitySet affinity_random_set(std::mt19937_64& rng) {
    static const int periods[] = {6, 8, 10, 12, 15, 20, 24};
    const int cores = 2 + static_cast<int>(rng() % 2);
    const int n = 2 + static_cast<int>(rng() % 4);
    AffinitySet s;
    for (int i = 0; i < n; ++i) {
        std::vector<int> affinity;
        for (int c = 0; c < cores; ++c)
            if (rng() % 2 == 0) affinity.push_back(c);
        if (affinity.empty()) affinity.push_back(static_cast<int>(rng() % cores));
        std::shuffle(affinity.begin(), affinity.end(), rng);
        const int period = periods[rng() % 7];
        CpuRtaTask t{affinity,
                     static_cast<std::int64_t>(rng() % 3),
                     Time(period),
                     test::fraction(1 + int(rng() % 5), 2),
                     test::fraction(int(rng() % 3), 2),
                     rng() % 3 == 0,
                     {}};
        if (t.suspends) t.suspension = test::fraction(int(rng() % 5), 2);
        s.rta.push_back(t);
        s.sim.push_back({t.priority, t.period, Time(int(rng() % period)), i, affinity});
    }
    return s;
}

// Whether a simulated response of `s` exceeds its bound under `m`: synchronous and offset
// releases, tie orders both ways, job times at their bounds or below them.
bool affinity_exceeded(const AffinitySet& s, const CpuRtaMutation& m, std::mt19937_64& rng, int& compared) {
    const auto bounds = cpu_response_bounds(s.rta, m);
    for (const auto& b : bounds)
        if (!b.response) return false;
    ++compared;
    Time horizon = 0;
    for (const auto& t : s.rta) horizon = std::max(horizon, t.period);
    horizon *= 10;
    const std::uint64_t draw = rng();
    for (int variant = 0; variant < 4; ++variant) {
        std::vector<CpuSimTask> sim = s.sim;
        for (auto& t : sim) {
            if (variant & 1) t.tie_rank = -t.tie_rank;
            if (variant < 2) t.offset = 0;
        }
        const bool at_bounds = variant % 2 == 0;
        const auto times = [&](std::size_t i, std::int64_t k) {
            const CpuRtaTask& t = s.rta[i];
            const Time susp = t.suspends ? *t.suspension : Time(0);
            if (at_bounds) return CpuJobTimes{t.pre, susp, t.post};
            std::mt19937_64 job(draw + i * 7919 + static_cast<std::uint64_t>(k));
            const auto part = [&](const Time& x) { return x * Time(int(job() % 3), 2); };
            return CpuJobTimes{t.pre * Time(1 + int(job() % 2), 2), part(susp), part(t.post)};
        };
        const CpuSimResult r = simulate_cpu(sim, times, horizon);
        if (r.unfinished) return true;
        for (std::size_t i = 0; i < s.rta.size(); ++i)
            if (r.response[i] > *bounds[i].response || r.pre[i] > *bounds[i].pre) return true;
    }
    return false;
}

}  // namespace

TEST_CASE("CPU affinity: every simulated response within the bound, on many seeded task sets", "[cpu_side]") {
    int compared = 0, multi = 0;
    for (std::uint64_t seed = 0; seed < test::seeded(400); ++seed) {
        std::mt19937_64 rng(seed);
        const AffinitySet s = affinity_random_set(rng);
        std::vector<CpuTask> tasks(s.rta.size());
        for (std::size_t i = 0; i < s.rta.size(); ++i) tasks[i].cpus = s.rta[i].cores;
        INFO("seed " << seed);
        const int before = compared;
        CHECK_FALSE(affinity_exceeded(s, {}, rng, compared));
        if (compared > before && has_multi_core_affinity(tasks)) ++multi;
    }
    CHECK(multi > static_cast<int>(test::seeded(400)) / 8);
}

// Counting on a core only the tasks pinned to it misses a multi-core task that runs there.
TEST_CASE("CPU affinity: the simulation catches a bound that counts only pinned tasks", "[cpu_side]") {
    CpuRtaMutation m;
    m.count_only_pinned = true;
    bool caught = false;
    int compared = 0;
    for (std::uint64_t seed = 0; seed < 400 && !caught; ++seed) {
        std::mt19937_64 rng(seed);
        caught = affinity_exceeded(affinity_random_set(rng), m, rng, compared);
    }
    CHECK(caught);
}

namespace {

const char* const affinity_toml = R"([[stream]]
name = "G"

[[kernel]]
name = "K"
stream = "G"
blocks = 1
threads = 32
block_time = 2

[[cpu]]
name = "Core0"
scheduler = "fixed_priority_preemptive"

[[cpu]]
name = "Core1"
scheduler = "fixed_priority_preemptive"

[[cpu_task]]
name = "Offload"
cpu = ["Core1", "Core0"]
priority = 2
period = 20
execution = 1
gpu = "G"

[[cpu_task]]
name = "Control"
cpu = "Core0"
priority = 1
period = 10
execution = 3

[[requirement]]
name = "Deadline_Control"
task = "Control"
response_time = 9
)";

}  // namespace

TEST_CASE("CPU affinity TOML: a list of cores, written back unchanged, mistakes at their place", "[cpu_side]") {
    const Workload w = test::workload_from(affinity_toml);
    REQUIRE(w.cpu.tasks.size() == 2);
    CHECK(w.cpu.tasks[0].cpus == std::vector<int>{1, 0});
    CHECK(w.cpu.tasks[1].cpus == std::vector<int>{0});
    const std::string text = workload_to_toml(w);
    CHECK(text.find("cpu = [\"Core1\", \"Core0\"]") != std::string::npos);
    CHECK(workload_to_toml(load_workload_text(text, "again.toml")) == text);
    // The certificate names what a multi-core affinity rests on, and only then.
    REQUIRE(cpu_side_assumptions(w).size() == 1);
    CHECK(cpu_side_assumptions(w)[0].find("work-conserving") != std::string::npos);
    CHECK(
        cpu_side_assumptions(test::workload_from(std::string(affinity_toml)
                                                     .replace(std::string(affinity_toml).find("[\"Core1\", \"Core0\"]"),
                                                              18, "\"Core1\"")))
            .empty());
    const auto fails = [&](const std::string& to, const std::string& where, const std::string& phrase) {
        std::string text = affinity_toml;
        const std::string from = "[\"Core1\", \"Core0\"]";
        text.replace(text.find(from), from.size(), to);
        INFO(to);
        CHECK_THROWS_WITH(load_workload_text(text, "aff.toml"),
                          Catch::Contains("aff.toml:" + where) && Catch::Contains(phrase));
    };
    fails("[\"Core1\", \"Core9\"]", "21:17", "unknown cpu 'Core9'");
    fails("[\"Core1\", \"Core1\"]", "21:17", "named twice");
    fails("[]", "21:7", "names no core");
    fails("[\"Core1\", 3]", "21:17", "'cpu'");
}
