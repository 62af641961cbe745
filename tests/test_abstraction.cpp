// The interval-abstraction engine (--engine bounds) against the exhaustive enumeration and the
// simulator: its upper bound covers every scenario, its lower bound is a replayed scenario.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "encode/block/block_problem.hpp"
#include "model/generate/random_workload.hpp"
#include "sim/simulate.hpp"
#include "bounds/interference/interference.hpp"
#include "bounds/abstraction/bounds.hpp"
#include "bounds/abstraction/problem.hpp"
#include "bounds/abstraction/state.hpp"
#include "solver/block/enumerate/enumerate.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

using test::random_scenario;

// Small workloads with every feature the engine accepts: several operations per stream,
// copies, registers, after_stream_idle, staggered issues; intervals and windows when asked.
RandomWorkloadSpec feature_spec(std::uint64_t seed, bool ranges) {
    RandomWorkloadSpec s;
    s.kernels = 2 + static_cast<int>(seed % 3);        // 2..4 operations
    s.streams = 1 + static_cast<int>((seed / 3) % 3);  // over 1..3 streams
    s.shared_kib = {0, 16, 32, 48};
    s.registers = {0, 16, 32};
    s.max_blocks = 3;
    s.max_block_time = 3;
    s.block_time_denominator = seed % 5 == 0 ? 2 : 1;
    s.staggered_issue = seed % 2 == 1;
    s.copy_percent = 25;
    s.after_idle_percent = 25;
    if (seed % 7 == 0) s.sms = 3;
    if (ranges) {
        s.interval_percent = 40;
        s.window_percent = 40;
    }
    return s;
}

// Odd seeds: one abstract state per key (every merge a hull, the widest intervals, where an
// unsound transition shows most); even seeds: refinement up to 8. Every third seed explores
// without the interference bound's completion caps, so that both explorations are compared.
BoundsOptions quick(std::uint64_t seed = 0) {
    BoundsOptions b;
    b.completion_caps = seed % 3 != 0;
    b.lower_bound_simulations = 60;
    b.initial_states = seed % 2 ? 1 : 2;
    b.max_states = seed % 2 ? 1 : 8;
    b.partial_cap = seed % 2 ? 1 : 8;
    return b;
}

// Every lower bound is a replayed scenario, below every proven upper bound.
void require_consistent(const Workload& w, const BoundsResult& r) {
    for (const WcrtAnswer& a : r.wcrt) {
        INFO("operation " << w.ops[a.op].name);
        REQUIRE(a.upper);
        REQUIRE(a.lower);
        REQUIRE(a.witness);
        const Schedule s = simulate(w, witness_scenario(w, *a.witness));
        CHECK(s.response(a.op) == *a.lower);
        CHECK(*a.lower <= *a.upper);
        CHECK((a.status == WcrtStatus::exact) == (*a.lower == *a.upper));
    }
}

// Every proven upper bound covers the responses of `scenarios` random scenarios (grid 4).
void require_covers_random_scenarios(const Workload& w, const BoundsResult& r, std::mt19937_64& rng, int scenarios) {
    for (int i = 0; i < scenarios; ++i) {
        const Schedule s = random_scenario(w, rng, 4);
        for (std::size_t op = 0; op < w.ops.size(); ++op) {
            INFO("operation " << w.ops[op].name << ", random scenario " << i);
            CHECK(s.response(static_cast<int>(op)) <= *r.wcrt[op].upper);
        }
    }
}

// The workload with every interval and window fixed at the point lo + (hi - lo) * num / den.
Workload fixed_at(Workload w, long num, long den) {
    for (Operation& o : w.ops) {
        const Time t = o.time.lo + (o.time.hi - o.time.lo) * Time(num, den);
        o.time = {t, t};
        if (o.issue.kind == IssueSpec::Kind::at) {
            const Time i = o.issue.at.lo + (o.issue.at.hi - o.issue.at.lo) * Time(num, den);
            o.issue.at = {i, i};
        }
    }
    return w;
}

}  // namespace

TEST_CASE("bounds: upper bound >= enumeration's exact WCRT >= replayed lower bound, 700 point-time workloads") {
    EngineOptions o;
    for (std::uint64_t seed = 1; seed <= test::seeded(700); ++seed) {
        const Workload w = random_workload(feature_spec(seed, false), seed);
        INFO("seed " << seed);
        const EnumerationResult ref = enumerate_wcrt(w, o, Budget{});
        REQUIRE(ref.complete);
        const BoundsResult r = abstraction_bounds(w, o, Budget{}, quick(seed));
        require_consistent(w, r);
        for (std::size_t op = 0; op < w.ops.size(); ++op) {
            INFO("operation " << w.ops[op].name);
            CHECK(*r.wcrt[op].upper >= *ref.wcrt[op].lower);
            CHECK(*r.wcrt[op].lower <= *ref.wcrt[op].lower);
        }
    }
}

TEST_CASE("bounds under most-room and first-fit: every lower bound is a scenario of the policy, 160 workloads") {
    // The abstraction covers any SM (so every policy); a lower bound must be a scenario of the
    // policy asked for, its SMs the policy's own, or it may exceed the policy's WCRT.
    for (std::uint64_t seed = 1; seed <= 160; ++seed) {
        EngineOptions o;
        o.policy = seed % 2 ? Policy::first_fit : Policy::most_room;
        const Workload w = random_workload(feature_spec(seed, false), 60000 + seed);
        INFO("seed " << seed << ", policy " << policy_name(o.policy));
        const EnumerationResult ref = enumerate_wcrt(w, o, Budget{});
        REQUIRE(ref.complete);
        const BoundsResult r = abstraction_bounds(w, o, Budget{}, quick(seed));
        require_consistent(w, r);
        for (std::size_t op = 0; op < w.ops.size(); ++op) {
            INFO("operation " << w.ops[op].name);
            const WcrtAnswer& a = r.wcrt[op];
            CHECK(*a.upper >= *ref.wcrt[op].lower);
            CHECK(*a.lower <= *ref.wcrt[op].lower);
            Scenario own = witness_scenario(w, *a.witness);
            own.fixed_sm.clear();
            own.policy = o.policy;
            for (const BlockTiming& b : simulate(w, own).blocks) CHECK(b.sm == a.witness->sm[b.kernel][b.index]);
        }
    }
}

TEST_CASE("bounds: targeted refinement and time-shift merging keep UB >= enumeration, 300 point-time workloads") {
    EngineOptions o;
    int shifted = 0;
    for (std::uint64_t seed = 1; seed <= 300; ++seed) {
        RandomWorkloadSpec spec = feature_spec(seed, false);
        spec.staggered_issue = seed % 4 == 1;  // mostly all issued at 0: time-shift merging applies
        spec.copy_percent = seed % 3 == 0 ? 0 : 25;
        spec.after_idle_percent = seed % 5 == 0 ? 0 : 25;
        const Workload w = random_workload(spec, 50000 + seed);
        INFO("seed " << seed);
        shifted += abstraction::Problem(w).translation_invariant;
        const EnumerationResult ref = enumerate_wcrt(w, o, Budget{});
        REQUIRE(ref.complete);
        BoundsOptions b = quick(seed);
        b.initial_states = 1;
        b.max_states = 16;
        b.partial_cap = seed % 2 ? 1 : 4;
        b.targeted = true;
        b.targeted_depth = seed % 3 == 0 ? -1 : static_cast<int>(seed % 3) - 1;
        b.shift_merge = seed % 2 == 0;
        const BoundsResult r = abstraction_bounds(w, o, Budget{}, b);
        require_consistent(w, r);
        for (std::size_t op = 0; op < w.ops.size(); ++op) {
            INFO("operation " << w.ops[op].name);
            CHECK(*r.wcrt[op].upper >= *ref.wcrt[op].lower);
        }
    }
    CHECK(shifted > 100);  // the time-shift merge was exercised
}

TEST_CASE("bounds: upper bound covers simulated and enumerated scenarios of 400 interval and window workloads") {
    EngineOptions o;
    std::mt19937_64 rng(4242);
    for (std::uint64_t seed = 1; seed <= test::seeded(400); ++seed) {
        const Workload w = random_workload(feature_spec(seed, true), 10000 + seed);
        INFO("seed " << seed);
        const BoundsResult r = abstraction_bounds(w, o, Budget{}, quick(seed));
        require_consistent(w, r);
        require_covers_random_scenarios(w, r, rng, 40);
        for (long num : {0L, 1L, 2L, 4L}) {
            const EnumerationResult ref = enumerate_wcrt(fixed_at(w, num, 4), o, Budget{});
            REQUIRE(ref.complete);
            for (std::size_t op = 0; op < w.ops.size(); ++op) {
                INFO("operation " << w.ops[op].name << ", all ranges at " << num << "/4");
                CHECK(*ref.wcrt[op].lower <= *r.wcrt[op].upper);
            }
        }
    }
}

TEST_CASE("bounds: the anomaly reproducers of docs/decisions/0010 are covered") {
    EngineOptions o;
    SECTION("interior block time") {  // K2's worst response 2 needs K1's block at exactly 0.5
        const Workload w = test::workload_from(R"(
[[stream]]
name = "S0"
[[stream]]
name = "S1"
[[kernel]]
name = "K1"
stream = "S0"
blocks = 1
threads = 1024
block_time = [0.4, 1]
[[kernel]]
name = "K3"
stream = "S0"
blocks = 1
threads = 1024
block_time = 1
[[kernel]]
name = "K2"
stream = "S1"
blocks = 4
threads = 1024
block_time = 1
issue = 0.5
)");
        const BoundsResult r = abstraction_bounds(w, o, Budget{});
        require_consistent(w, r);
        CHECK(*r.wcrt[*w.find_op("K2")].upper >= Time(2));
    }
    SECTION("interior issue instant") {  // both respond in 11 only when issued together at 0.5
        const Workload w = test::workload_from(R"(
[[stream]]
name = "S0"
[[stream]]
name = "S1"
[[kernel]]
name = "K1"
stream = "S0"
blocks = 1
threads = 1024
block_time = 1
issue = [0, 1]
[[kernel]]
name = "K2"
stream = "S1"
blocks = 4
threads = 1024
block_time = 10
issue = 0.5
)");
        const BoundsResult r = abstraction_bounds(w, o, Budget{});
        require_consistent(w, r);
        CHECK(*r.wcrt[*w.find_op("K1")].upper >= Time(11));
        CHECK(*r.wcrt[*w.find_op("K2")].upper >= Time(11));
        CHECK(*r.wcrt[*w.find_op("K2")].lower == Time(11));  // the interior instant is on the tick grid
    }
}

TEST_CASE("bounds: reordering the streams and operations of the file keeps every bound sound and the same") {
    EngineOptions o;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        INFO("seed " << seed);
        Workload w = random_workload(feature_spec(seed, seed % 2 == 0), 20000 + seed);
        // Reverse the streams and rename every operation: a different file of the same workload.
        Workload v = w;
        const int ns = static_cast<int>(w.streams.size());
        std::reverse(v.streams.begin(), v.streams.end());
        for (Operation& op : v.ops) {
            op.stream = ns - 1 - op.stream;
            op.name = "x" + op.name;
        }
        std::stable_sort(v.ops.begin(), v.ops.end(),
                         [](const Operation& a, const Operation& b) { return a.stream < b.stream; });
        const BoundsResult a = abstraction_bounds(w, o, Budget{}, quick());
        const BoundsResult b = abstraction_bounds(v, o, Budget{}, quick());
        const auto index = v.op_index();
        for (std::size_t op = 0; op < w.ops.size(); ++op) {
            INFO("operation " << w.ops[op].name);
            const WcrtAnswer& x = a.wcrt[op];
            const WcrtAnswer& y = b.wcrt[index.at("x" + w.ops[op].name)];
            CHECK(exact_string(*x.upper) == exact_string(*y.upper));
        }
    }
}

TEST_CASE("abstraction keys: a set of operations holds any operation, whatever order it was built in") {
    std::mt19937_64 rng(7);
    for (int trial = 0; trial < 50; ++trial) {
        std::vector<int> ops;
        for (int op = 0; op < 300; ++op)
            if (rng() % 3 == 0) ops.push_back(op);
        abstraction::OpSet forward, backward;
        for (int op : ops) forward = abstraction::with(forward, op);
        for (auto it = ops.rbegin(); it != ops.rend(); ++it) backward = abstraction::with(backward, *it);
        for (int op = 0; op < 320; ++op)
            CHECK(abstraction::has(forward, op) == std::binary_search(ops.begin(), ops.end(), op));
        CHECK(forward.count() == static_cast<int>(ops.size()));
        const abstraction::Key a{forward, 3, 0}, b{backward, 3, 0};
        CHECK(a == b);
        CHECK(abstraction::KeyHash{}(a) == abstraction::KeyHash{}(b));
        // One operation more, below or beyond the inline words: another key.
        for (int extra : {5, 200, 299}) {
            if (abstraction::has(forward, extra)) continue;
            const abstraction::Key c{abstraction::with(forward, extra), 3, 0};
            CHECK(!(c == a));
            CHECK(abstraction::KeyHash{}(c) != abstraction::KeyHash{}(a));
        }
    }
}

TEST_CASE("bounds: above max_explored_operations nothing is explored, only the interference bound bounds") {
    EngineOptions o;
    RandomWorkloadSpec s;
    s.kernels = 129;
    s.streams = 129;
    const Workload w = random_workload(s, 1);
    BoundsOptions b;
    b.max_explored_operations = 128;  // the default limit's path, on a workload cheap to bound
    const BoundsResult r = abstraction_bounds(w, o, Budget{}, b);
    CHECK(r.rounds.empty());
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].find("no abstraction") != std::string::npos);
    const InterferenceBounds interference = interference_bounds(w, Budget{});
    for (std::size_t op = 0; op < w.ops.size(); ++op) {
        REQUIRE(r.wcrt[op].upper);
        CHECK(*r.wcrt[op].upper == *interference.response[op]);
        CHECK(r.wcrt[op].upper_by == Provenance::interference);
        CHECK(!r.wcrt[op].lower);
    }
}

// `w` behind `pad` kernels of a stream of its own, issued at `late`, after every operation of
// `w` completed: the padding changes no response of `w`, and puts its operations at indices
// from `pad` on, beyond the two inline words of a set of operations when pad >= 128.
Workload behind_padding(const Workload& w, int pad, const Time& late) {
    REQUIRE(!w.has_wait());
    Workload p = w;
    Stream s;
    s.name = "padding";
    p.streams.insert(p.streams.begin(), s);
    p.ops.clear();
    for (int i = 0; i < pad; ++i) {
        Operation k;
        k.name = "pad" + std::to_string(i);
        k.stream = 0;
        k.position = i;
        k.blocks = 1;
        k.threads = 1024;
        k.time = {1, 1};
        k.issue.at = {late, late};
        p.ops.push_back(k);
    }
    for (Operation op : w.ops) {
        ++op.stream;
        p.ops.push_back(op);
    }
    return p;
}

TEST_CASE("bounds beyond 128 operations: a workload's bounds are the same behind 128 kernels of padding") {
    EngineOptions o;
    for (std::uint64_t seed = 1; seed <= test::seeded(12); ++seed) {
        INFO("seed " << seed);
        const Workload w = random_workload(feature_spec(seed, seed % 2 == 0), 30000 + seed);
        BoundsOptions b = quick(seed);
        b.completion_caps = false;  // the exploration's own bounds on both sides
        const BoundsResult small = abstraction_bounds(w, o, Budget{}, b);
        const Workload p = behind_padding(w, 128, Time(1000));
        const BoundsResult wide = abstraction_bounds(p, o, Budget{}, b);
        REQUIRE(!wide.rounds.empty());  // explored, not left to the interference bound
        for (std::size_t op = 0; op < w.ops.size(); ++op) {
            INFO("operation " << w.ops[op].name);
            const WcrtAnswer& a = small.wcrt[op];
            const WcrtAnswer& x = wide.wcrt[op + 128];
            REQUIRE(a.upper);
            REQUIRE(x.upper);
            CHECK(exact_string(*x.upper) == exact_string(*a.upper));
        }
        require_consistent(p, wide);
    }
}

TEST_CASE("bounds beyond 128 operations: every bound covers simulated scenarios of 130-200 operations", "[slow]") {
    EngineOptions o;
    std::mt19937_64 rng(1300);
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        INFO("seed " << seed);
        // Block-time intervals, copies, after_stream_idle on two streams, so that the orders the
        // exploration keys stay few at 200 operations (more streams and windows multiply them).
        RandomWorkloadSpec s = feature_spec(seed, true);
        s.kernels = 130 + static_cast<int>(seed * 23 % 71);  // 130..200
        s.streams = 2;
        s.window_percent = 0;
        s.staggered_issue = true;
        const Workload w = random_workload(s, 40000 + seed);
        const BoundsResult r = abstraction_bounds(w, o, Budget{}, quick(2 * seed + 1));
        REQUIRE(!r.rounds.empty());
        require_consistent(w, r);
        require_covers_random_scenarios(w, r, rng, 10);
    }
}

TEST_CASE(
    "bounds: a timeout gives unknown and only the busy-time or interference bound, never one from an unfinished "
    "exploration") {
    RandomWorkloadSpec s;
    s.kernels = 14;
    s.streams = 14;
    EngineOptions o;
    const auto timeout = std::chrono::milliseconds(30);
    const auto t0 = std::chrono::steady_clock::now();
    BoundsOptions b;
    b.initial_states = 64;
    const Workload w = random_workload(s, 3);
    const BoundsResult r = abstraction_bounds(w, o, Budget::for_timeout(timeout), b);
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(1000));
    const BlockProblem bp = make_block_problem(w);
    const InterferenceBounds interference = interference_bounds(w, Budget{});
    for (const WcrtAnswer& a : r.wcrt) {
        CHECK(a.status == WcrtStatus::unknown);
        REQUIRE(a.upper);
        const Time busy = bp.response_upper_bound(static_cast<int>(bp.index_of_op(a.op)));
        const Time& by_interference = *interference.response[a.op];
        // The interference bound's sweeps share the 30 ms and may stop before they reach their
        // fixed point (a sanitizer build): then its bound is looser, and never below it.
        CHECK(*a.upper <= busy);
        CHECK(*a.upper >= std::min(busy, by_interference));
        CHECK((a.upper_by == Provenance::interference || (a.upper_by == Provenance::busy_time && *a.upper == busy)));
        CHECK(a.unknown_reason == "timeout");
    }
    // With a block-time interval (in the busy-time bound's scope: it counts every
    // block at hi, docs/theory/encoding.md "Intervals and windows: the grid"). How far the exploration
    // got before the clock is machine-dependent: assert only what holds either way.
    Workload c = w;
    c.ops[0].time.hi = c.ops[0].time.lo + 1;
    for (const WcrtAnswer& a : abstraction_bounds(c, o, Budget::for_timeout(timeout), b).wcrt) {
        if (a.lower && a.upper) CHECK(*a.upper >= *a.lower);
        if (a.status == WcrtStatus::exact) CHECK(a.lower == a.upper);
    }
}
