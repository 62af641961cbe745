// The CPU side (docs/theory/semantics.md §11): the TOML keys, the fixed-priority response-time
// analysis with self-suspensions against hand derivations and against a CPU simulation of many
// seeded task sets, on one core and over affinities of several cores (docs/decisions/
// 0034-cpu-affinity.md), and the fixed point with the GPU's bounds.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>

#include "bounds/cpu/cpu_rta.hpp"
#include "model/io/write_toml.hpp"
#include "sim/cpu/simulate_cpu.hpp"
#include "solver/cpu/cpu_side.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

CpuRtaTask cpu_test_task(std::int64_t prio, int period, int pre, std::optional<int> suspension = {}, int post = 0) {
    CpuRtaTask t{{0}, prio, Time(period), Time(pre), Time(post), suspension.has_value(), {}};
    if (suspension) t.suspension = Time(*suspension);
    return t;
}

}  // namespace

// τ2 (priority 1, T 10, C 3) below τ1 (priority 2, T 4, C 1): R2 = 3 + ⌈R2/4⌉·1 → 4 (3+1 = 4,
// ⌈4/4⌉ = 1). With equal priorities each delays the other: R1 = 1 + ⌈R1/10⌉·3 = 4, R2 = 4.
TEST_CASE("CPU RTA: fixed priorities and equal priorities, derived by hand", "[cpu_side]") {
    auto b = cpu_response_bounds({cpu_test_task(2, 4, 1), cpu_test_task(1, 10, 3)});
    CHECK(b[0].response == Time(1));
    CHECK(b[1].response == Time(4));
    b = cpu_response_bounds({cpu_test_task(1, 4, 1), cpu_test_task(1, 10, 3)});
    CHECK(b[0].response == Time(4));
    CHECK(b[1].response == Time(4));
    // Another core does not interfere.
    std::vector<CpuRtaTask> two_cores{cpu_test_task(1, 4, 1), cpu_test_task(1, 10, 3)};
    two_cores[1].cores = {1};
    b = cpu_response_bounds(two_cores);
    CHECK(b[0].response == Time(1));
    CHECK(b[1].response == Time(3));
}

// τ1 (priority 2, T 10): pre 1, suspension ≤ 4, post 1; τ2 (priority 1, T 20, C 5).
// τ1 alone: R1 = 1 + 4 + 1 = 6, its frame released within 1.
// Suspension-oblivious τ2: R = 5 + ⌈R/10⌉·6: 11, then 5 + 2·6 = 17, stable: 17.
// Jitter-based τ2: J1 = R1 − C1 = 4, R = 5 + ⌈(R + 4)/10⌉·2: 7, 9, then ⌈13/10⌉ = 2: 9.
// The smaller, 9, by the jitter argument.
TEST_CASE("CPU RTA: a higher-priority self-suspension, derived by hand", "[cpu_side]") {
    const auto b = cpu_response_bounds({cpu_test_task(2, 10, 1, 4, 1), cpu_test_task(1, 20, 5)});
    CHECK(b[0].response == Time(6));
    CHECK(b[0].pre == Time(1));
    CHECK(b[1].response == Time(9));
    CHECK(b[1].by == CpuArgument::jitter);
    // A suspension without a bound leaves the task and those it delays without one.
    CpuRtaTask unbounded = cpu_test_task(2, 10, 1, 0, 1);
    unbounded.suspension.reset();
    const auto none = cpu_response_bounds({unbounded, cpu_test_task(1, 20, 5)});
    CHECK_FALSE(none[0].response);
    CHECK_FALSE(none[1].response);
    // An overloaded core (utilisation 6/10 + 5/8 > 1): no bound for the lower task.
    const auto over = cpu_response_bounds({cpu_test_task(2, 10, 6), cpu_test_task(1, 8, 5)});
    CHECK(over[0].response == Time(6));
    CHECK_FALSE(over[1].response);
}

namespace {

struct CpuRandomSet {
    std::vector<CpuRtaTask> rta;
    std::vector<CpuSimTask> sim;
};

// How a seeded task set draws a task: a priority below `priorities`, an execution of 1 to
// `pre_halves` halves, one task in `suspend_one_in` suspending for below `suspension_halves` halves.
struct CpuDraw {
    int priorities, pre_halves, suspend_one_in, suspension_halves;
};

void cpu_random_task(CpuRandomSet& s, std::mt19937_64& rng, std::vector<int> cores, int period, const CpuDraw& d) {
    CpuRtaTask t{cores,
                 static_cast<std::int64_t>(rng() % d.priorities),
                 Time(period),
                 test::fraction(1 + int(rng() % d.pre_halves), 2),
                 test::fraction(int(rng() % 3), 2),
                 rng() % d.suspend_one_in == 0,
                 {}};
    if (t.suspends) t.suspension = test::fraction(int(rng() % d.suspension_halves), 2);
    s.rta.push_back(t);
    s.sim.push_back(
        {t.priority, t.period, Time(int(rng() % period)), static_cast<int>(s.sim.size()), std::move(cores)});
}

CpuRandomSet cpu_random_set(std::mt19937_64& rng) {
    static const int periods[] = {5, 6, 8, 10, 12, 15, 20};
    const int n = 2 + static_cast<int>(rng() % 3);
    CpuRandomSet s;
    for (int i = 0; i < n; ++i) cpu_random_task(s, rng, {0}, periods[rng() % 7], {2, 4, 2, 7});
    return s;
}

// Twelve of a set's longest periods: several of its busy periods.
Time cpu_sim_horizon(const CpuRandomSet& s) {
    Time horizon = 0;
    for (const auto& t : s.rta) horizon = std::max(horizon, t.period);
    return horizon * 12;
}

// Variant 0–3 of a set's run: odd ones with every tie order reversed, 0 and 1 with every offset 0.
std::vector<CpuSimTask> cpu_sim_variant(const CpuRandomSet& s, int variant) {
    std::vector<CpuSimTask> sim = s.sim;
    for (auto& t : sim) {
        if (variant & 1) t.tie_rank = -t.tie_rank;
        if (variant < 2) t.offset = 0;
    }
    return sim;
}

// Whether some simulated response of `s` exceeds its bound (the analysis run with `m`); counts
// the sets compared. Each set runs with every tie order reversed too, synchronous and offset
// releases, and job times at their bounds or drawn below them.
bool cpu_exceeded(const CpuRandomSet& s, const CpuRtaMutation& m, std::mt19937_64& rng, int& compared) {
    const auto bounds = cpu_response_bounds(s.rta, m);
    for (const auto& b : bounds)
        if (!b.response) return false;
    ++compared;
    const Time horizon = cpu_sim_horizon(s);
    for (int variant = 0; variant < 4; ++variant) {
        const std::vector<CpuSimTask> sim = cpu_sim_variant(s, variant);
        const bool at_bounds = variant % 2 == 0;
        std::uint64_t draw = rng();
        const auto times = [&](std::size_t i, std::int64_t k) {
            const CpuRtaTask& t = s.rta[i];
            const Time susp = t.suspends ? *t.suspension : Time(0);
            if (at_bounds) return CpuJobTimes{t.pre, susp, t.post};
            std::mt19937_64 job(draw + i * 7919 + static_cast<std::uint64_t>(k));
            const auto part = [&](const Time& x) { return x * Time(int(job() % 3), 2); };
            return CpuJobTimes{t.pre == 0 ? Time(0) : t.pre * Time(1 + int(job() % 2), 2), part(susp), part(t.post)};
        };
        const CpuSimResult r = simulate_cpu(sim, times, horizon);
        if (r.unfinished) return true;
        for (std::size_t i = 0; i < s.rta.size(); ++i)
            if (r.response[i] > *bounds[i].response || r.pre[i] > *bounds[i].pre) return true;
    }
    return false;
}

}  // namespace

TEST_CASE("CPU RTA: every simulated response within the bound, on many seeded task sets", "[cpu_side]") {
    int compared = 0;
    for (std::uint64_t seed = 0; seed < test::seeded(400); ++seed) {
        std::mt19937_64 rng(seed);
        const CpuRandomSet s = cpu_random_set(rng);
        INFO("seed " << seed);
        CHECK_FALSE(cpu_exceeded(s, {}, rng, compared));
    }
    CHECK(compared > static_cast<int>(test::seeded(400)) / 4);
}

// A mutation of either argument must show in the simulation: equal priorities not counted, and
// a task's own suspension dropped.
// The simulator's integer run (a common unit) against its rational one, on every job.
TEST_CASE("CPU simulation: the same run in a common unit as in rationals", "[cpu_side]") {
    for (std::uint64_t seed = 0; seed < test::seeded(200); ++seed) {
        std::mt19937_64 rng(seed);
        const CpuRandomSet s = cpu_random_set(rng);
        const std::uint64_t draw = rng();
        const auto times = [&](std::size_t i, std::int64_t k) {
            std::mt19937_64 job(draw + i * 7919 + static_cast<std::uint64_t>(k));
            const CpuRtaTask& t = s.rta[i];
            return CpuJobTimes{t.pre * test::fraction(1 + int(job() % 3), 3),
                               t.suspends ? test::fraction(int(job() % 7), 5) : Time(0), t.post};
        };
        const CpuSimResult a = simulate_cpu(s.sim, times, Time(120)), b = simulate_cpu(s.sim, times, Time(120), true);
        INFO("seed " << seed);
        REQUIRE(a.jobs.size() == b.jobs.size());
        for (std::size_t i = 0; i < a.jobs.size(); ++i) {
            REQUIRE(a.jobs[i].size() == b.jobs[i].size());
            for (std::size_t k = 0; k < a.jobs[i].size(); ++k) {
                CHECK(a.jobs[i][k].release == b.jobs[i][k].release);
                CHECK(a.jobs[i][k].pre_end == b.jobs[i][k].pre_end);
                CHECK(a.jobs[i][k].end == b.jobs[i][k].end);
            }
        }
        CHECK(a.response == b.response);
        CHECK(a.unfinished == b.unfinished);
    }
}

TEST_CASE("CPU RTA: the simulation catches an unsound analysis", "[cpu_side]") {
    for (const CpuRtaMutation m : {CpuRtaMutation{true, false}, CpuRtaMutation{false, true}}) {
        bool caught = false;
        int compared = 0;
        for (std::uint64_t seed = 0; seed < 400 && !caught; ++seed) {
            std::mt19937_64 rng(seed);
            const CpuRandomSet s = cpu_random_set(rng);
            caught = cpu_exceeded(s, m, rng, compared);
        }
        CHECK(caught);
    }
}

namespace {

// A set of cpu_random_set whose suspending tasks (at least one) wait for frames of at least
// `least` and of no known bound; the others' bounds (those waits counted by bursts) against
// simulations in which every wait is `least` (the densest bursts) or drawn above it. Counts the
// sets in which some task had a bound.
bool cpu_burst_exceeded(std::mt19937_64& rng, const CpuRtaMutation& m, int& compared) {
    CpuRandomSet s = cpu_random_set(rng);
    s.rta[0].suspends = true;
    for (CpuRtaTask& t : s.rta)
        if (t.suspends) {
            t.suspension.reset();
            t.least_suspension = test::fraction(1 + int(rng() % 6), 2);
        }
    const auto bounds = cpu_response_bounds(s.rta, m);
    if (std::none_of(bounds.begin(), bounds.end(), [](const CpuRtaBound& b) { return b.response.has_value(); }))
        return false;
    ++compared;
    const Time horizon = cpu_sim_horizon(s);
    for (int variant = 0; variant < 4; ++variant) {
        const std::vector<CpuSimTask> sim = cpu_sim_variant(s, variant);
        const std::uint64_t draw = rng();
        const auto times = [&](std::size_t i, std::int64_t k) {
            const CpuRtaTask& t = s.rta[i];
            std::mt19937_64 job(draw + i * 7919 + static_cast<std::uint64_t>(k));
            const Time wait = !t.suspends        ? Time(0)
                              : variant % 2 == 0 ? t.least_suspension
                                                 : t.least_suspension + test::fraction(int(job() % 9), 2);
            return CpuJobTimes{t.pre, wait, t.post};
        };
        const CpuSimResult r = simulate_cpu(sim, times, horizon);
        for (std::size_t i = 0; i < s.rta.size(); ++i) {
            if (!bounds[i].response) continue;
            for (const CpuJobRun& j : r.jobs[i])
                if (!j.end || *j.end - j.release > *bounds[i].response || !j.pre_end ||
                    *j.pre_end - j.release > *bounds[i].pre)
                    return true;
        }
    }
    return false;
}

}  // namespace

TEST_CASE("CPU RTA: tasks beside waits of no known bound, counted by bursts, within the bound", "[cpu_side]") {
    int compared = 0;
    for (std::uint64_t seed = 0; seed < test::seeded(300); ++seed) {
        std::mt19937_64 rng(seed);
        INFO("seed " << seed);
        CHECK_FALSE(cpu_burst_exceeded(rng, {}, compared));
    }
    CHECK(compared > static_cast<int>(test::seeded(300)) / 4);
    // A window's last burst counted only when whole: the simulation shows it unsound.
    CpuRtaMutation whole;
    whole.bursts_whole_only = true;
    bool caught = false;
    for (std::uint64_t seed = 0; seed < 400 && !caught; ++seed) {
        std::mt19937_64 rng(seed);
        caught = cpu_burst_exceeded(rng, whole, compared);
    }
    CHECK(caught);
}

// Lehoczky's example (RTSS 1990; Tindell, Burns and Wellings 1994): H (C 26, T 70) above L
// (C 62, T 100), utilisation 0.99. L's first job ends at 114 = 62 + 2·26, past its period; its
// third, released at 200, ends at 316 = 3·62 + 5·26: 116. Synchronous releases on one core are
// L's worst case, so the busy period's largest response is the simulation's.
TEST_CASE("CPU RTA: jobs past their period, over the busy period", "[cpu_side]") {
    const std::vector<CpuRtaTask> ts{cpu_test_task(2, 70, 26), cpu_test_task(1, 100, 62)};
    std::vector<CpuSimTask> sim{{2, Time(70), Time(0), 0}, {1, Time(100), Time(0), 1}};
    const auto times = [&](std::size_t i, std::int64_t) { return CpuJobTimes{ts[i].pre, Time(0), Time(0)}; };
    const CpuSimResult r = simulate_cpu(sim, times, Time(7000));
    const auto b = cpu_response_bounds(ts);
    REQUIRE(b[1].response);
    CHECK(*b[1].response == r.response[1]);
    CHECK(r.response[1] >= Time(116));
    CpuRtaMutation first;
    first.first_job_only = true;
    CHECK(cpu_response_bounds(ts, first)[1].response == Time(114));
}

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

// 2-5 tasks on 2-3 cores, each allowed on a random non-empty set of them taken in a random order,
// some suspending.
CpuRandomSet affinity_random_set(std::mt19937_64& rng) {
    static const int periods[] = {6, 8, 10, 12, 15, 20, 24};
    const int cores = 2 + static_cast<int>(rng() % 2);
    const int n = 2 + static_cast<int>(rng() % 4);
    CpuRandomSet s;
    for (int i = 0; i < n; ++i) {
        std::vector<int> affinity;
        for (int c = 0; c < cores; ++c)
            if (rng() % 2 == 0) affinity.push_back(c);
        if (affinity.empty()) affinity.push_back(static_cast<int>(rng() % cores));
        std::shuffle(affinity.begin(), affinity.end(), rng);
        cpu_random_task(s, rng, affinity, periods[rng() % 7], {3, 5, 3, 5});
    }
    return s;
}

}  // namespace

TEST_CASE("CPU affinity: every simulated response within the bound, on many seeded task sets", "[cpu_side]") {
    int compared = 0, multi = 0;
    for (std::uint64_t seed = 0; seed < test::seeded(150); ++seed) {
        std::mt19937_64 rng(seed);
        const CpuRandomSet s = affinity_random_set(rng);
        std::vector<CpuTask> tasks(s.rta.size());
        for (std::size_t i = 0; i < s.rta.size(); ++i) tasks[i].cpus = s.rta[i].cores;
        INFO("seed " << seed);
        const int before = compared;
        CHECK_FALSE(cpu_exceeded(s, {}, rng, compared));
        if (compared > before && has_multi_core_affinity(tasks)) ++multi;
    }
    CHECK(multi > static_cast<int>(test::seeded(150)) / 8);
}

// Counting on a core only the tasks pinned to it misses a multi-core task that runs there.
TEST_CASE("CPU affinity: the simulation catches a bound that counts only pinned tasks", "[cpu_side]") {
    CpuRtaMutation m;
    m.count_only_pinned = true;
    bool caught = false;
    int compared = 0;
    for (std::uint64_t seed = 0; seed < 400 && !caught; ++seed) {
        std::mt19937_64 rng(seed);
        caught = cpu_exceeded(affinity_random_set(rng), m, rng, compared);
    }
    CHECK(caught);
}

namespace {

const char* const cpu_side_toml = R"([[stream]]
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

[[cpu_task]]
name = "Offload"
cpu = "Core0"
priority = 2
period = 20
execution = [1, 2]
gpu = "G"
after_gpu = 1

[[cpu_task]]
name = "Control"
cpu = "Core0"
priority = 1
period = 10
execution = 3

[[requirement]]
name = "Deadline_Offload"
task = "Offload"
response_time = 8

[[requirement]]
name = "Deadline_Control"
task = "Control"
response_time = 2
)";

}  // namespace

TEST_CASE("CPU side TOML: read, the driven stream's releases, written back unchanged", "[cpu_side]") {
    const Workload w = test::workload_from(cpu_side_toml);
    REQUIRE(w.cpu.cpus.size() == 1);
    REQUIRE(w.cpu.tasks.size() == 2);
    REQUIRE(w.cpu.requirements.size() == 2);
    CHECK(w.cpu.tasks[0].gpu == 0);
    CHECK(w.cpu.tasks[0].execution.lo == Time(1));
    // Released with its task's period, after its shortest pre-GPU execution, within its longest.
    const Arrival& a = w.streams[0].arrival;
    CHECK(a.kind == Arrival::Kind::periodic);
    CHECK(a.period == Time(20));
    CHECK(a.offset == Time(1));
    CHECK(a.jitter == Time(1));
    const std::string text = workload_to_toml(w);
    CHECK(workload_to_toml(load_workload_text(text, "again.toml")) == text);
}

TEST_CASE("CPU side TOML: every mistake at its place", "[cpu_side]") {
    const std::string base = cpu_side_toml;
    const auto fails = [&](const std::string& from, const std::string& to, const std::string& where,
                           const std::string& phrase) {
        std::string text = base;
        const auto at = text.find(from);
        REQUIRE(at != std::string::npos);
        text.replace(at, from.size(), to);
        INFO(to);
        CHECK_THROWS_WITH(load_workload_text(text, "cpu.toml"),
                          Catch::Contains("cpu.toml:" + where) && Catch::Contains(phrase));
    };
    fails("scheduler = \"fixed_priority_preemptive\"", "scheduler = \"edf\"", "13:13", "fixed_priority_preemptive");
    fails("cpu = \"Core0\"\npriority = 2", "cpu = \"Core9\"\npriority = 2", "17:7", "unknown cpu 'Core9'");
    fails("gpu = \"G\"", "gpu = \"H\"", "21:7", "unknown stream 'H'");
    fails("name = \"G\"\n", "name = \"G\"\nperiod = 20\n", "22:7", "has its own period");
    fails("execution = 3", "execution = 3\nafter_gpu = 1", "30:13", "'after_gpu' needs 'gpu'");
    fails("execution = 3", "", "", "'execution'");
    fails("task = \"Control\"", "task = \"Nobody\"", "38:8", "unknown task or stream 'Nobody'");
    fails("response_time = 2", "response_time = 0", "39:17", "'response_time' must be > 0");
    fails("response_time = 2", "response_time = 2\nanalysed = true", "40:12", "'analysed' may only be false");
    fails("response_time = 2", "response_time = 2\nanalysed = false", "40:12", "is declared here: remove 'analysed'");
    fails("period = 10", "", "", "needs 'period' or 'min_interarrival'");
}

// The Offload task of cpu_side_toml allowed on a second core too.
TEST_CASE("CPU affinity TOML: a list of cores, written back unchanged, mistakes at their place", "[cpu_side]") {
    std::string two_cores = cpu_side_toml;
    const std::string one = "cpu = \"Core0\"\npriority = 2";
    two_cores.replace(two_cores.find(one), one.size(), "cpu = [\"Core1\", \"Core0\"]\npriority = 2");
    const std::string core0 = "[[cpu]]\nname = \"Core0\"\nscheduler = \"fixed_priority_preemptive\"\n";
    two_cores.insert(two_cores.find(core0) + core0.size(),
                     "\n[[cpu]]\nname = \"Core1\"\nscheduler = \"fixed_priority_preemptive\"\n");
    const Workload w = test::workload_from(two_cores);
    REQUIRE(w.cpu.tasks.size() == 2);
    CHECK(w.cpu.tasks[0].cpus == std::vector<int>{1, 0});
    CHECK(w.cpu.tasks[1].cpus == std::vector<int>{0});
    const std::string text = workload_to_toml(w);
    CHECK(text.find("cpu = [\"Core1\", \"Core0\"]") != std::string::npos);
    CHECK(workload_to_toml(load_workload_text(text, "again.toml")) == text);
    // The certificate names what a multi-core affinity rests on, and only then.
    REQUIRE(cpu_side_assumptions(w).size() == 1);
    CHECK(cpu_side_assumptions(w)[0].find("work-conserving") != std::string::npos);
    CHECK(cpu_side_assumptions(test::workload_from(cpu_side_toml)).empty());
    const auto fails = [&](const std::string& to, const std::string& where, const std::string& phrase) {
        std::string bad = two_cores;
        const std::string from = "[\"Core1\", \"Core0\"]";
        bad.replace(bad.find(from), from.size(), to);
        INFO(to);
        CHECK_THROWS_WITH(load_workload_text(bad, "aff.toml"),
                          Catch::Contains("aff.toml:" + where) && Catch::Contains(phrase));
    };
    fails("[\"Core1\", \"Core9\"]", "21:17", "unknown cpu 'Core9'");
    fails("[\"Core1\", \"Core1\"]", "21:17", "named twice");
    fails("[]", "21:7", "names no core");
    fails("[\"Core1\", 3]", "21:17", "'cpu'");
}

// With a GPU bound fixed by hand the fixed point is the RTA's: Offload pre ≤ 2 (alone), so its
// frame's window is [1, 2]; GPU 3 → R = 2 + 3 + 1 = 6 ≤ 8: certified, CPU part 3, GPU part 3.
// Control: a job executing 3 > 2 (Offload, above it, suspends: not counted ahead): refuted.
TEST_CASE("CPU side: requirements from the fixed point with a given GPU bound", "[cpu_side]") {
    const Workload w = test::workload_from(cpu_side_toml);
    const auto fixed_gpu = [](const Workload& x, const Budget&) {
        return std::vector<std::optional<Time>>(x.streams.size(), Time(3));
    };
    const CpuSideResult r = cpu_side_fixed_point(w, fixed_gpu, Budget{});
    REQUIRE(r.proven);
    CHECK(r.rounds == 1);
    const auto answers = requirement_answers(w, r);
    CHECK(answers[0].verdict == Verdict::certified);
    CHECK(answers[0].upper == Time(6));
    CHECK(answers[0].cpu_part == Time(3));
    CHECK(answers[0].gpu_part == Time(3));
    CHECK(answers[1].verdict == Verdict::refuted);
    CHECK(answers[1].lower == Time(3));
    // No GPU bound: nothing proven, nothing certified.
    const auto no_gpu = [](const Workload& x, const Budget&) {
        return std::vector<std::optional<Time>>(x.streams.size());
    };
    const CpuSideResult n = cpu_side_fixed_point(w, no_gpu, Budget{});
    CHECK_FALSE(n.proven);
    for (const RequirementAnswer& a : requirement_answers(w, n)) CHECK(a.verdict != Verdict::certified);
}

// Without a GPU bound the fixed point proves nothing, but a task whose bound reads no GPU frame
// keeps it: Alone on a core of its own (2 of 2), Top above Offload on Core0 (its bound counts
// only tasks of priority 5 or more: 1). Control, below Offload, cannot read Offload's unbounded
// wait, but Offload runs in bursts of at most 2 + 1 = 3 between waits of at least its kernel's
// block time 2: in a window t at most max(3m, t − 2m), m = ⌊(t + 2)/5⌋; with Top's ⌈t/10⌉, the
// iteration t = 3 + … goes 3, 7, 9, 10, 10: bound 10. Counting every task of a shared core, or
// every core, would lose Top or Alone; counting none would certify Control.
TEST_CASE("CPU side: without a GPU bound, the bounds that read no GPU frame still hold", "[cpu_side]") {
    const Workload w = test::workload_from(std::string(cpu_side_toml) + R"(
[[cpu]]
name = "Core1"
scheduler = "fixed_priority_preemptive"

[[cpu_task]]
name = "Alone"
cpu = "Core1"
priority = 1
period = 10
execution = 2

[[cpu_task]]
name = "Top"
cpu = "Core0"
priority = 5
period = 10
execution = 1

[[requirement]]
name = "Deadline_Alone"
task = "Alone"
response_time = 2

[[requirement]]
name = "Deadline_Top"
task = "Top"
response_time = 1
)");
    const auto no_gpu = [](const Workload& x, const Budget&) {
        return std::vector<std::optional<Time>>(x.streams.size());
    };
    const CpuSideResult r = cpu_side_fixed_point(w, no_gpu, Budget{});
    CHECK_FALSE(r.proven);
    CHECK(r.gpu_free == std::vector<bool>{false, false, true, true});
    const auto answers = requirement_answers(w, r);
    REQUIRE(answers.size() == 4);
    CHECK(answers[0].verdict == Verdict::unknown);  // Offload: its own GPU wait
    CHECK_FALSE(answers[0].upper);
    CHECK(answers[1].verdict == Verdict::refuted);  // Control: refuted by its execution alone
    CHECK(answers[1].upper == Time(10));            // Offload's bursts, whatever its wait
    CHECK(answers[2].verdict == Verdict::certified);
    CHECK(answers[2].upper == Time(2));
    CHECK(answers[3].verdict == Verdict::certified);
    CHECK(answers[3].upper == Time(1));
}

// Two contexts whose kernels alone hold the GPU 1.5 times its time (1.5 every 2 each, slices of 1):
// no frame bound exists, and certify says both that the driving task has no bound and why
// the GPU has none, with the overload's figures.
TEST_CASE("CPU side: certify says why the GPU gives no frame bound", "[cpu_side][cli]") {
    const std::string file = test::write_file(test::temp_dir(), "overloaded.toml", R"(
[platform]
context_switch = 0

[[context]]
name = "A"
timeslice = 1

[[context]]
name = "B"
timeslice = 1

[[stream]]
name = "GA"
context = "A"

[[stream]]
name = "GB"
context = "B"
period = 2

[[kernel]]
name = "KA"
stream = "GA"
blocks = 1
threads = 32
block_time = 1.5

[[kernel]]
name = "KB"
stream = "GB"
blocks = 1
threads = 32
block_time = 1.5

[[cpu]]
name = "Host"
scheduler = "fixed_priority_preemptive"

[[cpu_task]]
name = "Driver"
cpu = "Host"
priority = 1
period = 2
execution = 0.1
gpu = "GA"

[[requirement]]
name = "Deadline_Driver"
task = "Driver"
response_time = 100
)");
    const auto r = test::run_cli({"certify", file});
    INFO(r.out << r.err);
    CHECK(r.exit_code == 2);
    CHECK(test::contains(r.out,
                         "task 'Driver' has no bound: its release of stream 'GA' is not bounded; "
                         "stream 'GA': no bound: the time-sliced contexts need the GPU 1.5 of the time"));
}

// Control above Offload (priority 3, C 3, no suspension, so R 3 and jitter 0): Offload's
// pre-GPU part 2 + ⌈t/10⌉·3 = 5, past its window [1, 2]: the window widens to jitter 4. The GPU
// bound grows with the window (2 + jitter = 6); the pre-GPU bound stays 5: a fixed point after
// two rounds. Offload: C 3 + S 6 + ⌈R/10⌉·3: 12, then 9 + 2·3 = 15.
TEST_CASE("CPU side: the GPU's release window widened to the CPU's bound", "[cpu_side]") {
    std::string text = cpu_side_toml;
    text.replace(text.find("priority = 1"), 12, "priority = 3");
    const Workload w = test::workload_from(text);
    const auto growing = [](const Workload& x, const Budget&) {
        return std::vector<std::optional<Time>>(x.streams.size(), Time(2) + x.streams[0].arrival.jitter);
    };
    const CpuSideResult g = cpu_side_fixed_point(w, growing, Budget{});
    REQUIRE(g.proven);
    CHECK(g.rounds == 2);
    CHECK(g.analysed.streams[0].arrival.jitter == Time(4));
    CHECK(g.tasks[0].pre == Time(5));
    CHECK(g.tasks[0].response == Time(15));
    // Stopped before the fixed point: nothing proven.
    CHECK_FALSE(cpu_side_fixed_point(w, growing, Budget{}, 1).proven);
}

TEST_CASE("CPU side: swapped or impossible requirements warned about", "[cpu_side]") {
    std::string text = cpu_side_toml;
    text.replace(text.find("name = \"Deadline_Control\""), 25, "name = \"Deadline_Offload2\"");
    text.replace(text.find("response_time = 8"), 17, "response_time = 30");
    const Workload w = test::workload_from(text);
    const auto warnings = requirement_warnings(w);
    REQUIRE(warnings.size() == 2);
    CHECK(test::contains(warnings[0], "more than task 'Offload''s period 20"));
    CHECK(test::contains(warnings[1], "is on 'Control' but its name names 'Offload'"));
}

// The mapped WATERS model: Lane detection runs on a CPU within PRE_Lane_detection, so no name is
// "Lane_detection" any more, and "Deadline_Task_Lane_Detection" contains only the stream name
// "Detection". It still names its own target; "Deadline_Task_Detection" on it does not.
TEST_CASE("CPU side: a requirement naming its target in more words than another name", "[cpu_side]") {
    const std::string base = R"([[stream]]
name = "Detection"

[[kernel]]
name = "K"
stream = "Detection"
blocks = 1
threads = 32
block_time = 2

[[cpu]]
name = "C"
scheduler = "fixed_priority_preemptive"

[[cpu_task]]
name = "PRE_Detection"
cpu = "C"
priority = 2
period = 200
execution = 1
gpu = "Detection"

[[cpu_task]]
name = "PRE_Lane_detection"
cpu = "C"
priority = 1
period = 66
execution = 40

[[requirement]]
name = "NAME"
task = "PRE_Lane_detection"
response_time = 66
)";
    std::string own = base, other = base;
    own.replace(own.find("NAME"), 4, "Deadline_Task_Lane_Detection");
    other.replace(other.find("NAME"), 4, "Deadline_Task_Detection");
    CHECK(requirement_warnings(test::workload_from(own)).empty());
    const auto warnings = requirement_warnings(test::workload_from(other));
    REQUIRE(warnings.size() == 1);
    CHECK(test::contains(warnings[0], "is on 'PRE_Lane_detection' but its name names 'Detection'"));
}

TEST_CASE("CPU side: certify checks the requirements through the all-time GPU bound", "[cpu_side]") {
    // Control's limit 4 is above its execution, 3, so that only a run of the whole system refutes it.
    std::string text = cpu_side_toml;
    text.replace(text.rfind("response_time = 2"), 17, "response_time = 4");
    const std::string path = test::write_file(test::temp_dir(), "cpu.toml", text);
    const test::CliRun run = test::run_cli({"certify", path});
    INFO(run.out << run.err);
    CHECK(run.exit_code == 1);  // Control refuted
    CHECK(test::contains(run.out, "Deadline_Offload"));
    CHECK(test::contains(run.out, "certified"));
    // Control behind Offload's first part, 2, and second part, 1, after its frame of 2: 6 in a run
    // of the CPU and the GPU together, the bound itself.
    CHECK(test::contains(run.out, "refuted (job 0 released at 0"));
    CHECK(test::contains(run.out, "responds in 6 = CPU 6 + GPU 0"));
    // The certificate states what it rests on: the argument, the CPU analysis among them.
    CHECK(test::contains(run.out, "assumptions:"));
    CHECK(test::contains(run.out, "fixed-priority response-time analysis with self-suspension"));
    const test::CliRun json = test::run_cli({"certify", "--json", path});
    CHECK(json.exit_code == 1);
    CHECK(test::contains(json.out, "\"gpu_part\": \"2\""));
    CHECK(test::contains(json.out, "\"verdict\": \"refuted\""));
    const test::CliRun wcrt = test::run_cli({"wcrt", path});
    CHECK(wcrt.exit_code == 3);
    CHECK(test::contains(wcrt.err, "gpuwcrt certify"));
}

// A (C 2) and B (C 3), equal priorities, both released at 0: B may be queued first, so some run
// has A respond in 2 + 3 = 5 > 4: refuted. With B's offset 1 that run is not the model's: the
// lower bound is A's own 2, the upper bound 5 (B counted once): unknown.
TEST_CASE("CPU side: a requirement refuted by the synchronous run, only when it exists", "[cpu_side]") {
    const std::string gpu = "[[kernel]]\nname = \"K\"\nblocks = 1\nthreads = 32\nblock_time = 1\n\n";
    const std::string tasks =
        "[[cpu]]\nname = \"C\"\nscheduler = \"fixed_priority_preemptive\"\n\n"
        "[[cpu_task]]\nname = \"A\"\ncpu = \"C\"\npriority = 1\nperiod = 10\nexecution = 2\n\n"
        "[[cpu_task]]\nname = \"B\"\ncpu = \"C\"\npriority = 1\nperiod = 10\nexecution = 3\n";
    const std::string requirement = "\n[[requirement]]\nname = \"RA\"\ntask = \"A\"\nresponse_time = 4\n";
    const auto none = [](const Workload& x, const Budget&) {
        return std::vector<std::optional<Time>>(x.streams.size());
    };
    const Workload sync = test::workload_from(gpu + tasks + requirement);
    const auto a = requirement_answers(sync, cpu_side_fixed_point(sync, none, Budget{}));
    CHECK(a[0].verdict == Verdict::refuted);
    CHECK(a[0].lower == Time(5));
    CHECK(a[0].upper == Time(5));
    const Workload offset = test::workload_from(gpu + tasks + "offset = 1\n" + requirement);
    const auto b = requirement_answers(offset, cpu_side_fixed_point(offset, none, Budget{}));
    CHECK(b[0].verdict == Verdict::unknown);
    CHECK(b[0].lower == Time(2));
    CHECK(b[0].upper == Time(5));
}
