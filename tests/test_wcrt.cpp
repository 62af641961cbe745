// The SMT engine against the exhaustive engine (the simulator over every scenario), witness
// replay, the thesis cases, and unknown on timeout.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <fstream>

#include "encode/block/block_problem.hpp"
#include "model/generate/random_workload.hpp"
#include "model/io/write_toml.hpp"
#include "sim/simulate.hpp"
#include "solver/block/enumerate/enumerate.hpp"
#include "solver/block/smt/wcrt_smt.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

RandomWorkloadSpec small_spec(std::uint64_t seed) {
    RandomWorkloadSpec s;
    s.kernels = 2 + static_cast<int>(seed % 4);        // 2..5 kernels
    s.streams = 1 + static_cast<int>((seed / 4) % 4);  // over 1..4 streams
    s.threads = {128, 256, 512, 768, 1024};
    s.shared_kib = {0, 16, 32, 48};
    s.max_blocks = 2;
    s.max_block_time = 3;
    s.block_time_denominator = seed % 5 == 0 ? 2 : 1;  // some halves: exact rationals
    s.staggered_issue = seed % 2 == 1;
    return s;
}

void require_smt_equals_enumeration(const Workload& w, const EngineOptions& o) {
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
        // The busy-time bound is proven, so no scenario may exceed it; exact answers are tight.
        CHECK(p.response_upper_bound(static_cast<int>(p.index_of_op(static_cast<int>(op)))) >= *a.lower);
        CHECK(a.upper == a.lower);
        CHECK(reference.wcrt[op].upper == reference.wcrt[op].lower);
        // The witness is a real scenario: replayed, it gives the claimed response.
        const Schedule s = simulate(w, witness_scenario(w, *a.witness));
        CHECK(s.response(static_cast<int>(op)) == *a.lower);
    }
}

}  // namespace

static void enumeration_differential(std::uint64_t first, std::uint64_t last) {
    for (std::uint64_t seed = first; seed <= last; ++seed) {
        const Workload w = random_workload(small_spec(seed), seed);
        EngineOptions o;
        o.policy = test::policy_for(seed);
        // Half the seeds start from a trivial incumbent, so that the solver itself has to
        // find every improvement: a search good enough to hit the worst case at once would
        // otherwise leave only the final UNSAT to be checked.
        o.incumbent_simulations = seed % 2 == 0 ? 0 : -1;
        INFO("seed " << seed << ", policy " << policy_name(o.policy) << ", incumbent budget " << o.incumbent_simulations
                     << "\n"
                     << workload_to_toml(w));
        require_smt_equals_enumeration(w, o);
    }
}

// 300 workloads in three parts, so that ctest can run them in parallel.
TEST_CASE("SMT WCRT equals exhaustive enumeration, random workloads 1-100", "[wcrt][smt][differential][slow]") {
    enumeration_differential(1, 100);
}
TEST_CASE("SMT WCRT equals exhaustive enumeration, random workloads 101-200", "[wcrt][smt][differential][slow]") {
    enumeration_differential(101, 200);
}
TEST_CASE("SMT WCRT equals exhaustive enumeration, random workloads 201-300", "[wcrt][smt][differential][slow]") {
    enumeration_differential(201, 300);
}

TEST_CASE("regression: Z3's native PB propagator wrongly answered unsat here (seed 122 of the first spec)",
          "[wcrt][smt][differential]") {
    RandomWorkloadSpec spec = small_spec(122);
    spec.max_blocks = 3;
    const Workload w = random_workload(spec, 122);
    EngineOptions o;
    o.policy = Policy::first_fit;
    require_smt_equals_enumeration(w, o);
}

TEST_CASE("the event encoding agrees with enumeration too", "[wcrt][smt][differential]") {
    for (std::uint64_t seed = 1000; seed < 1000 + test::seeded(40); ++seed) {
        RandomWorkloadSpec spec = small_spec(seed);
        spec.kernels = std::min(spec.kernels, 3);
        const Workload w = random_workload(spec, seed);
        EngineOptions o;
        o.policy = seed % 2 ? Policy::chooser : Policy::most_room;
        o.encoding = EncodingChoice::event;
        INFO("seed " << seed << "\n" << workload_to_toml(w));
        require_smt_equals_enumeration(w, o);
    }
}

TEST_CASE("thesis example: WCRT of every kernel is the simulator's maximum over all 24 orders", "[wcrt][cases]") {
    const Workload w = load_workload_file(test::source_path("cases/thesis/example.toml"));
    std::vector<Time> worst(w.ops.size(), 0);
    int orders = 0;
    for_each_launch_order(w, [&](const std::vector<long>& rank) {
        Scenario sc;
        sc.rank = rank;
        const Schedule s = simulate(w, sc);
        for (std::size_t i = 0; i < w.ops.size(); ++i) worst[i] = std::max(worst[i], s.response(static_cast<int>(i)));
        ++orders;
        return true;
    });
    REQUIRE(orders == 24);
    const BlockProblem p = make_block_problem(w);
    EngineStats stats;
    for (std::size_t op = 0; op < w.ops.size(); ++op) {
        const WcrtAnswer a = smt_maximise(w, p, static_cast<int>(op), EngineOptions{}, Budget{}, stats);
        CHECK(a.status == WcrtStatus::exact);
        CHECK(*a.lower == worst[op]);
    }
}

TEST_CASE("certify on the thesis §4.3 experiments matches enumeration", "[wcrt][certify][cases]") {
    for (const char* file : {"cases/thesis/block-analysis-1.toml", "cases/thesis/block-analysis-2.toml"}) {
        const Workload w = load_workload_file(test::source_path(file));
        // Every block has 512 threads, a quarter of an SM: where a block lands cannot change
        // any time, so enumerating launch orders with one placement policy is the full
        // reference here (enumerating every placement of 25 blocks as well takes minutes).
        // The SMT engine still ranges over every placement.
        EngineOptions one_placement;
        one_placement.policy = Policy::most_room;
        const EnumerationResult reference = enumerate_wcrt(w, one_placement, Budget{});
        REQUIRE(reference.complete);
        const BlockProblem p = make_block_problem(w);
        EngineStats stats;
        for (std::size_t op = 0; op < w.ops.size(); ++op) {
            INFO(file << " " << w.ops[op].name);
            const CertifyAnswer a =
                smt_certify(w, p, static_cast<int>(op), *w.ops[op].deadline, EngineOptions{}, Budget{}, stats);
            const bool violated = *reference.wcrt[op].lower > *w.ops[op].deadline;
            CHECK(a.verdict == (violated ? Verdict::refuted : Verdict::certified));
            if (violated) CHECK(*a.response > *w.ops[op].deadline);
        }
    }
}

TEST_CASE("certify CLI: block-analysis-1 is refuted and the written counterexample replays", "[wcrt][certify][cli]") {
    const std::string dir = test::temp_dir();
    const std::string cex = dir + "/cex.toml";
    const auto run =
        test::run_cli({"certify", test::source_path("cases/thesis/block-analysis-1.toml"), "--counterexample", cex});
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 1);
    CHECK(run.out.find("refuted") != std::string::npos);
    // The counterexample file fixes the scenario: plain `simulate` reproduces the violation.
    const Workload w = load_workload_file(cex);
    REQUIRE(w.scenario);
    const Schedule s = simulate(w, scenario_for(w, {}, std::nullopt));
    bool missed = false;
    for (std::size_t i = 0; i < w.ops.size(); ++i)
        missed = missed || s.response(static_cast<int>(i)) > *w.ops[i].deadline;
    CHECK(missed);
    const auto sim = test::run_cli({"simulate", cex});
    CHECK(sim.exit_code == 0);
    CHECK(sim.out.find("MISSED") != std::string::npos);
}

// Ten kernels, up to six blocks each: far beyond a 1 ms budget. Written to a file, with
// K1's busy-time bound.
// Ten simultaneous kernels (seed 77), shared by the busy-time CLI tests below.
static test::SimultaneousCase hard_case() { return test::simultaneous_kernels_file(10, 77); }

TEST_CASE("a timeout gives unknown and exit code 2, never certified", "[wcrt][certify][cli]") {
    const test::SimultaneousCase c = hard_case();
    // Just under the bounds on K1 proven without a search (busy-time, interference): no scenario
    // seems to reach it, so only a search could certify it (a bound at or above the busy-time
    // bound needs none; test below).
    const std::string bound = "K1=" + exact_string(c.k1_proven - Time(1, 2));
    const auto run = test::run_cli({"certify", c.file, "--bound", bound, "--timeout", "0.001"});
    INFO(run.out << run.err);
    CHECK(run.exit_code == 2);
    CHECK(run.out.find("unknown") != std::string::npos);
    CHECK(run.out.find("certified") == std::string::npos);
    const auto wcrt = test::run_cli({"wcrt", c.file, "--op", "K1", "--timeout", "0.001", "--json"});
    CHECK(wcrt.exit_code == 2);
    CHECK(wcrt.out.find("\"status\": \"unknown\"") != std::string::npos);
    // Unknown, but bracketed: a bound proven without a search comes with the lower bound (the
    // interference bound's sweeps may stop on time before they reach k1_proven).
    const nlohmann::json k1 = nlohmann::json::parse(wcrt.out).at("operations").at(0);
    const Time upper = parse_time(k1.at("upper_bound").get<std::string>()).value();
    CHECK(upper >= c.k1_proven);
    CHECK(upper <= c.k1_upper);
}

TEST_CASE("a bound at or above the busy-time bound is certified by that argument, by both engines",
          "[wcrt][certify][cli]") {
    const test::SimultaneousCase c = hard_case();
    const std::string upper = exact_string(c.k1_upper);
    for (const std::string engine : {"smt", "enumerate"}) {
        const auto run = test::run_cli(
            {"certify", c.file, "--bound", "K1=" + upper, "--engine", engine, "--timeout", "0.001", "--json"});
        INFO(engine << "\n" << run.out << run.err);
        CHECK(run.exit_code == 0);
        CHECK(run.out.find("\"verdict\": \"certified\"") != std::string::npos);
        CHECK(run.out.find("\"busy_time_bound\": \"" + upper + "\"") != std::string::npos);
    }
}

TEST_CASE("the SMT engine takes priorities, also with round-robin placement", "[wcrt][cli]") {
    const std::string dir = test::temp_dir();
    const std::string file = dir + "/prio.toml";
    std::ofstream(file)
        << "[[stream]]\nname = \"hi\"\npriority = \"high\"\n\n[[kernel]]\nname = \"K\"\nstream = \"hi\"\n"
           "blocks = 1\nthreads = 256\nblock_time = 1\n";
    const auto run = test::run_cli({"wcrt", file, "--engine", "smt", "--json"});
    CHECK(run.exit_code == 0);
    const auto by_enumeration = test::run_cli({"wcrt", file, "--engine", "enumerate", "--json"});
    CHECK(by_enumeration.exit_code == 0);
    CHECK(run.out.find("\"wcrt\": \"1\"") != std::string::npos);
    CHECK(by_enumeration.out.find("\"wcrt\": \"1\"") != std::string::npos);
    const auto rr = test::run_cli({"wcrt", file, "--engine", "smt", "--policy", "round-robin", "--json"});
    CHECK(rr.exit_code == 0);
    CHECK(rr.out.find("\"wcrt\": \"1\"") != std::string::npos);
}
