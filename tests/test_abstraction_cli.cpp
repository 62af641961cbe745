// --engine bounds through the CLI: intervals and windows accepted, witnesses with block times
// and issue instants written to a [scenario] that `simulate` replays, certify's verdicts, and
// clear errors for [scenario] values outside their interval.
#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "support.hpp"

using namespace gpuwcrt;
using nlohmann::json;

namespace {

// docs/decisions/0010-interval-anomalies.md's first reproducer: K2's worst response 2 needs K1's block at exactly 0.5.
const std::string interval_case =
    "[[stream]]\nname = \"S0\"\n"
    "[[kernel]]\nname = \"K1\"\nstream = \"S0\"\nblocks = 1\nthreads = 1024\nblock_time = [0.4, 1]\n"
    "[[kernel]]\nname = \"K3\"\nstream = \"S0\"\nblocks = 1\nthreads = 1024\nblock_time = 1\n"
    "[[kernel]]\nname = \"K2\"\nblocks = 4\nthreads = 1024\nblock_time = 1\nissue = 0.5\n";

// The second: K1 issued at 0.5, inside its window, gives K2 the response 11.
const std::string window_case =
    "[[kernel]]\nname = \"K1\"\nblocks = 1\nthreads = 1024\nblock_time = 1\nissue = [0, 1]\n"
    "[[kernel]]\nname = \"K2\"\nblocks = 4\nthreads = 1024\nblock_time = 10\nissue = 0.5\n";

std::string response_of(const std::string& simulate_json, const std::string& op) {
    const json j = json::parse(simulate_json);
    for (const auto& o : j["operations"])
        if (o["name"] == op) return o["response"];
    return "missing";
}

}  // namespace

TEST_CASE("wcrt --engine bounds ranges over intervals and windows, and simulate replays its witness",
          "[abstraction][cli]") {
    const std::string dir = test::temp_dir();
    struct Case {
        std::string name, text, op, worst;
    };
    for (const Case& c :
         {Case{"interval.toml", interval_case, "K2", "2"}, Case{"window.toml", window_case, "K2", "11"}}) {
        const std::string file = test::write_file(dir, c.name, c.text), witness = dir + "/w-" + c.name;
        const auto run =
            test::run_cli({"wcrt", file, "--engine", "bounds", "--op", c.op, "--witness", witness, "--json"});
        INFO(c.name << "\n" << run.out << run.err);
        REQUIRE((run.exit_code == 0 || run.exit_code == 2));
        const json j = json::parse(run.out);
        const json& a = j["operations"][0];
        CHECK(a["lower_bound"] == a["wcrt"]);
        CHECK(a["wcrt"] == c.worst);  // the interior point is on the tick grid the search draws from
        const auto replay = test::run_cli({"simulate", witness, "--json"});
        REQUIRE(replay.exit_code == 0);
        CHECK(response_of(replay.out, c.op) == c.worst);
        // An upper bound that meets the lower bound before any round needs no exploration.
        if (a["upper_by"] != "interference bound") CHECK(j["stats"]["abstract_states"].get<long long>() > 0);
    }
}

TEST_CASE("certify --engine bounds: certified by the proven bound, refuted by a replayed scenario",
          "[abstraction][cli]") {
    const std::string dir = test::temp_dir();
    const std::string file = test::write_file(dir, "interval.toml", interval_case), cex = dir + "/cex.toml";
    const auto refuted =
        test::run_cli({"certify", file, "--engine", "bounds", "--bound", "K2=1.5", "--counterexample", cex});
    INFO(refuted.out << refuted.err);
    CHECK(refuted.exit_code == 1);  // enumeration at hi alone would certify this
    const auto replay = test::run_cli({"simulate", cex, "--json"});
    REQUIRE(replay.exit_code == 0);
    // Any replayed response above the bound refutes it (certify stops at the first); none can
    // exceed the worst case 2 of the reproducer (interval_case).
    const std::optional<Time> response = parse_time(response_of(replay.out, "K2"));
    REQUIRE(response);
    CHECK(*response > Time(3) / 2);
    CHECK(*response <= Time(2));
    CHECK(refuted.out.find("violating response") != std::string::npos);
    CHECK(refuted.out.find(human_string(*response)) != std::string::npos);
    const auto certified = test::run_cli({"certify", file, "--engine", "bounds", "--bound", "K2=10", "--json"});
    CHECK(certified.exit_code == 0);
    const json j = json::parse(certified.out);
    CHECK(j["operations"][0]["verdict"] == "certified");
    CHECK(j["operations"][0]["upper_bound"].is_string());
}

TEST_CASE("[scenario] block_time and issue values are checked", "[abstraction][cli]") {
    const std::string dir = test::temp_dir();
    struct Case {
        std::string scenario, where, phrase;
    };
    // interval_case has 20 lines; [scenario] is line 21, its first key line 22.
    for (const Case& c : {Case{"block_time = { K1 = [1.5] }", ":22:", "outside its interval [0.4, 1]"},
                          Case{"block_time = { K1 = [0.5, 0.5] }", ":22:", "lists 2 times but it has 1 blocks"},
                          Case{"block_time = { Q = [0.5] }", ":22:", "unknown operation 'Q'"},
                          Case{"issue = { K2 = 0.7 }", ":22:", "outside its issue window [0.5, 0.5]"}}) {
        const std::string file = test::write_file(dir, "bad.toml", interval_case + "[scenario]\n" + c.scenario + "\n");
        const auto run = test::run_cli({"simulate", file});
        INFO(c.scenario << "\n" << run.err);
        CHECK(run.exit_code == 3);
        CHECK(run.out.empty());
        CHECK(run.err.rfind(file + c.where, 0) == 0);
        CHECK(run.err.find(c.phrase) != std::string::npos);
    }
    // A valid one: K1's block at 0.5 gives K2 the response 2 (the file order has K3 before K2).
    const std::string ok =
        test::write_file(dir, "ok.toml", interval_case + "[scenario]\nblock_time = { K1 = [0.5] }\n");
    const auto run = test::run_cli({"simulate", ok, "--json"});
    REQUIRE(run.exit_code == 0);
    CHECK(response_of(run.out, "K2") == "2");
}

TEST_CASE("wcrt --engine bounds covers priorities with intervals and explores beyond 128 operations",
          "[abstraction][cli]") {
    const std::string dir = test::temp_dir();
    // Before the abstraction of two EE queues, no engine took this (interval + priorities).
    const std::string prio = test::write_file(
        dir, "prio.toml",
        "[[stream]]\nname = \"H\"\npriority = \"high\"\n[[stream]]\nname = \"L\"\n"
        "[[kernel]]\nname = \"A\"\nstream = \"H\"\nblocks = 1\nthreads = 1024\nblock_time = [1, 2]\nissue = 0.5\n"
        "[[kernel]]\nname = \"B\"\nstream = \"L\"\nblocks = 4\nthreads = 1024\nblock_time = 1\n");
    const auto ok = test::run_cli({"wcrt", prio, "--engine", "bounds", "--json"});
    INFO(ok.err);
    CHECK((ok.exit_code == 0 || ok.exit_code == 2));
    CHECK(ok.out.find("\"upper_bound\"") != std::string::npos);

    // More operations than two 64-bit words hold, two priority levels: explored all the same,
    // every operation with a replayed lower bound below its proven upper bound.
    std::string many = "[[stream]]\nname = \"a\"\n[[stream]]\nname = \"b\"\npriority = \"high\"\n";
    for (int i = 0; i < 129; ++i)
        many += "[[kernel]]\nname = \"K" + std::to_string(i) + "\"\nstream = \"" + (i % 2 ? "a" : "b") +
                "\"\nblocks = 2\nthreads = 1024\nblock_time = [1, 2]\n";
    const std::string file = test::write_file(dir, "many.toml", many);
    const auto run = test::run_cli({"wcrt", file, "--engine", "bounds", "--json"});
    INFO(run.err);
    CHECK((run.exit_code == 0 || run.exit_code == 2));
    CHECK(test::occurrences(run.out, "\"upper_bound\"") == 129);
    CHECK(test::occurrences(run.out, "\"lower_bound\"") == 129);
    CHECK(!test::contains(run.out, "no abstraction"));
}
