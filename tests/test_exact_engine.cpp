// The exact explicit-state engine (solver/exact/) against the exhaustive engine on seeded random
// workloads with every feature it accepts, invariance under listing streams and operations in
// another order, refusals, unknown on timeout / budget / beam, and the CLI.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include <nlohmann/json.hpp>

#include "model/generate/random_workload.hpp"
#include "model/validate.hpp"
#include "sim/simulate.hpp"
#include "solver/block/enumerate/enumerate.hpp"
#include "solver/exact/explorer.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

// 2-5 operations; every feature the engine accepts appears on some seeds.
RandomWorkloadSpec feature_spec(std::uint64_t seed) {
    RandomWorkloadSpec s;
    s.kernels = 2 + static_cast<int>(seed % 4);
    s.streams = 1 + static_cast<int>((seed / 4) % 4);
    s.threads = {128, 256, 512, 768, 1024};
    s.shared_kib = {0, 16, 32, 48};
    s.max_blocks = 3;
    s.max_block_time = 3;
    s.block_time_denominator = seed % 5 == 0 ? 2 : 1;
    s.staggered_issue = seed % 2 == 1;
    s.sms = 1 + static_cast<int>((seed / 16) % 3);
    s.copy_engines = 1 + static_cast<int>((seed / 48) % 2);
    s.registers = {0, 8, 16, 32};
    s.copy_percent = seed % 3 == 0 ? 35 : 0;
    s.high_priority_streams = seed % 5 == 1 ? 1 : 0;
    s.null_stream = seed % 7 == 2;
    s.after_idle_percent = seed % 4 == 3 ? 40 : 0;
    return s;
}

Policy policy_for(std::uint64_t seed) {
    switch ((seed / 3) % 4) {
        case 0:
        case 1:
            return Policy::chooser;
        case 2:
            return Policy::most_room;
        default:
            return seed % 2 ? Policy::first_fit : Policy::round_robin;
    }
}

void require_witnesses_replay(const Workload& w, const ExactResult& r) {
    for (const WcrtAnswer& a : r.wcrt) {
        if (!a.lower) continue;
        REQUIRE(a.witness);
        CHECK(simulate(w, witness_scenario(w, *a.witness)).response(a.op) == *a.lower);
    }
}

// The exact engine against enumeration on `w`: every answer exact and equal, every witness
// replayed. Returns the engine's result.
ExactResult require_equal_to_enumeration(const Workload& w, const EngineOptions& o) {
    const EnumerationResult reference = enumerate_wcrt(w, o, Budget{});
    REQUIRE(reference.complete);
    ExactResult r = exact_wcrt(w, o, Budget{});
    REQUIRE(r.complete);
    for (std::size_t op = 0; op < w.ops.size(); ++op) {
        INFO("operation " << w.ops[op].name);
        REQUIRE(r.wcrt[op].status == WcrtStatus::exact);
        REQUIRE(r.wcrt[op].lower);
        CHECK(exact_string(*r.wcrt[op].lower) == exact_string(*reference.wcrt[op].lower));
        CHECK(r.wcrt[op].upper == r.wcrt[op].lower);
    }
    require_witnesses_replay(w, r);
    return r;
}

// The same workload with its streams listed in reverse and its operations interleaved in
// another file order (each stream keeps its own order): nothing semantic changes.
Workload relisted(const Workload& w, std::uint64_t seed) {
    Workload out = w;
    const int ns = static_cast<int>(w.streams.size());
    out.streams.assign(w.streams.rbegin(), w.streams.rend());
    std::vector<std::vector<int>> per(ns);
    for (std::size_t i = 0; i < w.ops.size(); ++i) per[w.ops[i].stream].push_back(static_cast<int>(i));
    std::mt19937_64 rng(seed);
    std::vector<std::size_t> next(ns, 0);
    out.ops.clear();
    while (out.ops.size() < w.ops.size()) {
        const int st = static_cast<int>(rng() % static_cast<std::uint64_t>(ns));
        if (next[st] == per[st].size()) continue;
        Operation op = w.ops[per[st][next[st]++]];
        op.stream = ns - 1 - st;
        out.ops.push_back(op);
    }
    return out;
}

}  // namespace

TEST_CASE("exact engine equals enumeration on 1200 random workloads with every feature") {
    int null_seen = 0, copies_seen = 0, high_seen = 0, idle_seen = 0, multi_seen = 0, pruned_seen = 0;
    for (std::uint64_t seed = 1; seed <= test::seeded(1200); ++seed) {
        Workload w = random_workload(feature_spec(seed), 7000 + seed);
        // A binding resident-block limit on some seeds (with >= 128-thread blocks it never binds
        // at the TX2's 32, and the engine then leaves the count out of its states).
        if (seed % 6 == 5) w.platform.blocks_per_sm_max = 1 + static_cast<std::int64_t>(seed % 4);
        EngineOptions o;
        o.policy = policy_for(seed);
        INFO("seed " << seed << ", policy " << policy_name(o.policy));
        const ExactResult r = require_equal_to_enumeration(w, o);
        pruned_seen += r.stats.pruned > 0;
        null_seen += w.null_stream() >= 0;
        high_seen += std::any_of(w.streams.begin(), w.streams.end(),
                                 [](const Stream& s) { return s.priority == Priority::high; });
        copies_seen += std::any_of(w.ops.begin(), w.ops.end(), [](const Operation& op) { return !op.is_kernel(); });
        idle_seen += std::any_of(w.ops.begin(), w.ops.end(), [](const Operation& op) {
            return op.issue.kind == IssueSpec::Kind::after_stream_idle;
        });
        multi_seen += w.ops.size() > w.streams.size();
    }
    // The features were really drawn (a spec change that turns one off fails here).
    if (test::sanitized) return;
    CHECK(null_seen > 50);
    CHECK(copies_seen > 100);
    CHECK(high_seen > 100);
    CHECK(idle_seen > 50);
    CHECK(multi_seen > 300);
    CHECK(pruned_seen > 100);  // the drain bound really cut states on these (docs/theory/exact-engine.md)
}

// Waits (W1) added to the feature workloads: some operations wait on an earlier one of another
// stream (earlier in file order, so waits and stream order form no cycle).
namespace {
Workload exact_with_waits(Workload w, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    if (w.null_stream() >= 0) return w;  // the engine refuses waits beside a NULL stream
    for (std::size_t i = 1; i < w.ops.size(); ++i) {
        if (rng() % 2 != 0) continue;
        std::vector<int> earlier;
        for (std::size_t d = 0; d < i; ++d)
            if (w.ops[d].stream != w.ops[i].stream) earlier.push_back(static_cast<int>(d));
        if (!earlier.empty()) w.ops[i].wait.push_back(earlier[rng() % earlier.size()]);
    }
    validate_workload(w);
    return w;
}
}  // namespace

namespace {

// Seeds first .. first + count - 1 (the sanitizers' share of them) of the workloads with waits.
void exact_equals_enumeration_with_waits(std::uint64_t first, std::uint64_t count) {
    int waits_seen = 0, delayed_seen = 0;
    const std::uint64_t drawn = test::seeded(count);
    for (std::uint64_t seed = first; seed < first + drawn; ++seed) {
        const Workload w = exact_with_waits(random_workload(feature_spec(seed), 9100 + seed), seed);
        EngineOptions o;
        o.policy = policy_for(seed);
        INFO("seed " << seed << ", policy " << policy_name(o.policy));
        const ExactResult r = require_equal_to_enumeration(w, o);
        const bool waits = w.has_wait();
        waits_seen += waits;
        // A wait that changes the answer: the same workload without waits responds otherwise.
        if (waits) {
            Workload free = w;
            for (Operation& op : free.ops) op.wait.clear();
            const ExactResult f = exact_wcrt(free, o, Budget{});
            for (std::size_t op = 0; op < w.ops.size(); ++op)
                if (f.wcrt[op].lower != r.wcrt[op].lower) {
                    ++delayed_seen;
                    break;
                }
        }
    }
    CHECK(waits_seen > static_cast<int>(drawn / 3));
    CHECK(delayed_seen > static_cast<int>(drawn / 10));
}

}  // namespace

TEST_CASE("exact engine equals enumeration on 1000 random workloads with waits") {
    exact_equals_enumeration_with_waits(1, 1000);
}

TEST_CASE("exact engine equals enumeration on random workloads with waits, seeds 1001-2000", "[slow]") {
    exact_equals_enumeration_with_waits(1001, 1000);
}

TEST_CASE("exact engine: pruning by the drain bound changes no answer on the bench/wcrt family") {
    for (std::uint64_t run = 0; run < 3; ++run) {
        RandomWorkloadSpec s;
        s.kernels = 7;
        s.streams = 7;
        const Workload w = random_workload(s, 7000 + run);
        ExactSearchOptions off;
        off.prune = false;
        const ExactResult a = exact_wcrt(w, {}, Budget{}), b = exact_wcrt(w, {}, Budget{}, off);
        REQUIRE(a.complete);
        REQUIRE(b.complete);
        CHECK(a.stats.pruned > 0);
        CHECK(b.stats.pruned == 0);
        for (std::size_t op = 0; op < w.ops.size(); ++op) {
            INFO("run " << run << ", operation " << w.ops[op].name);
            CHECK(a.wcrt[op].lower == b.wcrt[op].lower);
            CHECK(a.wcrt[op].status == WcrtStatus::exact);
        }
        require_witnesses_replay(w, a);
    }
}

TEST_CASE("exact engine: streams and operations listed in another order give the same WCRTs") {
    for (std::uint64_t seed = 1; seed <= 150; ++seed) {
        const Workload w = random_workload(feature_spec(seed), 9100 + seed);
        const Workload v = relisted(w, seed);
        EngineOptions o;  // any SM: a fixed policy may look at SM indices, not at stream order
        const ExactResult a = exact_wcrt(w, o, Budget{}), b = exact_wcrt(v, o, Budget{});
        REQUIRE(a.complete);
        REQUIRE(b.complete);
        for (std::size_t i = 0; i < w.ops.size(); ++i) {
            const int j = *v.find_op(w.ops[i].name);
            INFO("seed " << seed << ", operation " << w.ops[i].name);
            CHECK(exact_string(*a.wcrt[i].lower) == exact_string(*b.wcrt[j].lower));
        }
        require_witnesses_replay(v, b);
    }
}

TEST_CASE("gpuwcrt wcrt --engine exact over a block-time interval: grid lower bounds, exit 2, never exact") {
    const std::string file = test::source_path("cases/anomalies/supremum-not-attained.toml");
    const auto r = test::run_cli({"wcrt", file, "--engine", "exact", "--json"});
    REQUIRE(r.exit_code == 2);
    const auto j = nlohmann::json::parse(r.out);
    for (const auto& op : j["operations"]) {
        CHECK(op["status"] == "unknown");
        CHECK(op["wcrt"].is_string());
    }
}

TEST_CASE("exact engine: timeout, state budget and beam give unknown lower bounds, never exact") {
    RandomWorkloadSpec s;
    s.kernels = 12;
    s.streams = 12;
    const Workload w = random_workload(s, 12000);  // the bench/wcrt family, n = 12
    EngineOptions o;
    const ExactResult t = exact_wcrt(w, o, Budget::for_timeout(std::chrono::milliseconds(50)));
    CHECK_FALSE(t.complete);
    for (const WcrtAnswer& a : t.wcrt) {
        CHECK(a.status == WcrtStatus::unknown);
        CHECK(a.unknown_reason == "timeout");
        CHECK_FALSE(a.upper);
    }
    require_witnesses_replay(w, t);

    ExactSearchOptions state_cap;
    state_cap.max_states = 200;
    const ExactResult b = exact_wcrt(w, {}, Budget{}, state_cap);
    CHECK_FALSE(b.complete);
    for (const WcrtAnswer& a : b.wcrt) CHECK(a.unknown_reason == "state budget");

    // Beam answers are replayed lower bounds: at most the exact WCRT (checked on small workloads).
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        const Workload x = random_workload(feature_spec(seed), 7000 + seed);
        ExactSearchOptions beam;
        beam.beam = 1;
        const ExactResult lower = exact_wcrt(x, {}, Budget{}, beam), exact = exact_wcrt(x, {}, Budget{});
        REQUIRE(exact.complete);
        for (std::size_t op = 0; op < x.ops.size(); ++op) {
            INFO("seed " << seed << ", operation " << x.ops[op].name);
            if (!lower.wcrt[op].lower) continue;
            CHECK(*lower.wcrt[op].lower <= *exact.wcrt[op].lower);
            if (!lower.complete) CHECK(lower.wcrt[op].status == WcrtStatus::unknown);
        }
        require_witnesses_replay(x, lower);
    }
}

TEST_CASE("gpuwcrt wcrt --engine exact equals --engine enumerate on the thesis example") {
    const std::string file = test::source_path("cases/thesis/example.toml");
    const auto exact = test::run_cli({"wcrt", file, "--engine", "exact", "--json"});
    const auto enumerated = test::run_cli({"wcrt", file, "--engine", "enumerate", "--json"});
    REQUIRE(exact.exit_code == 0);
    REQUIRE(enumerated.exit_code == 0);
    const auto a = nlohmann::json::parse(exact.out), b = nlohmann::json::parse(enumerated.out);
    CHECK(a["engine"] == "exact");
    REQUIRE(a["operations"].size() == b["operations"].size());
    for (std::size_t i = 0; i < a["operations"].size(); ++i) {
        CHECK(a["operations"][i]["name"] == b["operations"][i]["name"]);
        CHECK(a["operations"][i]["wcrt"] == b["operations"][i]["wcrt"]);
        CHECK(a["operations"][i]["status"] == "exact");
    }
}

TEST_CASE("exact engine: 1, 2 and 3 worker threads give the same answers, witnesses and state counts") {
    auto same = [](const Workload& w, EngineOptions o) {
        o.threads = 1;
        const ExactResult one = exact_wcrt(w, o, Budget{});
        for (int t : {2, 3}) {
            o.threads = t;
            const ExactResult many = exact_wcrt(w, o, Budget{});
            CHECK(many.stats.threads == t);
            CHECK(many.complete == one.complete);
            CHECK(many.stats.states == one.stats.states);
            CHECK(many.stats.expansions == one.stats.expansions);
            for (std::size_t op = 0; op < w.ops.size(); ++op) {
                INFO("operation " << w.ops[op].name << ", " << t << " threads");
                REQUIRE(many.wcrt[op].lower == one.wcrt[op].lower);
                REQUIRE(many.wcrt[op].witness);
                CHECK(many.wcrt[op].witness->launch_order == one.wcrt[op].witness->launch_order);
                CHECK(many.wcrt[op].witness->sm == one.wcrt[op].witness->sm);
            }
            require_witnesses_replay(w, many);
        }
    };
    for (std::uint64_t seed = 1; seed <= 120; ++seed) {
        INFO("seed " << seed);
        EngineOptions o;
        o.policy = policy_for(seed);
        same(random_workload(feature_spec(seed), 7000 + seed), o);
    }
    RandomWorkloadSpec s;  // the bench/wcrt family at n = 7: levels of thousands of states, many chunks
    s.kernels = 7;
    s.streams = 7;
    same(random_workload(s, 7001), EngineOptions{});
}

TEST_CASE("gpuwcrt wcrt --threads: a bad count is an input error, a good one changes no answer") {
    const std::string file = test::source_path("cases/thesis/example.toml");
    for (const char* bad : {"0", "65", "-1", "x"}) {
        const auto r = test::run_cli({"wcrt", file, "--engine", "exact", "--threads", bad});
        INFO("--threads " << bad << ": " << r.err);
        CHECK(r.exit_code == 3);
        CHECK_THAT(r.err, Catch::Contains("--threads"));
    }
    const auto one = test::run_cli({"wcrt", file, "--engine", "exact", "--threads", "1", "--json"});
    const auto two = test::run_cli({"wcrt", file, "--engine", "exact", "--threads", "2", "--json"});
    REQUIRE(one.exit_code == 0);
    REQUIRE(two.exit_code == 0);
    CHECK(nlohmann::json::parse(one.out)["operations"] == nlohmann::json::parse(two.out)["operations"]);
}

TEST_CASE("exact engine: signals a waiting caller once its stored states reach a count, never before") {
    RandomWorkloadSpec s;
    s.kernels = 6;
    s.streams = 3;
    const Workload w = random_workload(s, 6003);
    const ExactResult full = exact_wcrt(w, {}, Budget{});
    REQUIRE(full.complete);
    REQUIRE(full.stats.states > 10);
    int calls = 0;
    StatesSignal early{10, [&] { ++calls; }};
    const ExactResult signalled = exact_wcrt(w, {}, Budget{}, {}, {}, early);
    CHECK(calls >= 1);
    CHECK(calls <= 2);  // the seeding beam run and the search, once each
    for (std::size_t i = 0; i < w.ops.size(); ++i) CHECK(signalled.wcrt[i].lower == full.wcrt[i].lower);
    calls = 0;
    StatesSignal never{static_cast<std::uint64_t>(full.stats.states) * 4 + 1000000, [&] { ++calls; }};
    exact_wcrt(w, {}, Budget{}, {}, {}, never);
    CHECK(calls == 0);
}
