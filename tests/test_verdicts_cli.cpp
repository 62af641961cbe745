// Verdicts that cannot be wrong or ambiguous: wcrt/certify range over block-time
// intervals and issue windows on the grid without calling a grid maximum exact, --bound / --only-bounds / --timeout are
// checked, wcrt --witness replays, and no output overwrites an input.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "model/generate/random_workload.hpp"
#include "model/io/write_toml.hpp"
#include "support.hpp"

using namespace gpuwcrt;
using nlohmann::json;

namespace {

// A shorter K1 block lets K3 take the room before K2 is queued.
// K1's [[kernel]] table is on line 3.
std::string interval_case(const std::string& k1_block_time) {
    return "[[stream]]\nname = \"S0\"\n"
           "[[kernel]]\nname = \"K1\"\nstream = \"S0\"\nblocks = 1\nthreads = 1024\nblock_time = " +
           k1_block_time +
           "\n"
           "[[kernel]]\nname = \"K3\"\nstream = \"S0\"\nblocks = 1\nthreads = 1024\nblock_time = 1\n"
           "[[kernel]]\nname = \"K2\"\nblocks = 4\nthreads = 1024\nblock_time = 1\nissue = 0.5\n";
}

// Second reproducer: issuing K1 inside its window changes the launch order. K1 is on line 1.
std::string window_case(const std::string& k1_issue) {
    return "[[kernel]]\nname = \"K1\"\nblocks = 1\nthreads = 1024\nblock_time = 1\nissue = " + k1_issue +
           "\n"
           "[[kernel]]\nname = \"K2\"\nblocks = 4\nthreads = 1024\nblock_time = 10\nissue = 0.5\n";
}

std::string response_of(const std::string& simulate_json, const std::string& op) {
    const json j = json::parse(simulate_json);  // named: a range-for over a temporary's member dangles
    for (const auto& o : j["operations"])
        if (o["name"] == op) return o["response"];
    return "missing";
}

// wcrt --json without the run's statistics (wall clock), for comparing two runs.
json verdict_part(const std::string& wcrt_json) {
    json j = json::parse(wcrt_json);
    j.erase("stats");
    j.erase("input");  // the context names the file, which differs between the runs compared
    return j;
}

const std::string block_analysis_1 = test::source_path("cases/thesis/block-analysis-1.toml");

}  // namespace

TEST_CASE("wcrt and certify range over block-time intervals and issue windows on the grid, with both engines",
          "[verdicts][cli]") {
    // Both reproducers' worst values lie on the grid 1/2 (K1's block time 0.5, K1's
    // issue instant 0.5): smt and enumerate find them and replay them, but call them lower bounds.
    const std::string dir = test::temp_dir();
    const std::string intervals = test::write_file(dir, "interval.toml", interval_case("[0.5, 1]"));
    const std::string windows = test::write_file(dir, "window.toml", window_case("[0, 1]"));
    struct Case {
        std::string file, op, bound, worst;
    };
    for (const Case& c : {Case{intervals, "K2", "K2=1.5", "2"}, Case{windows, "K1", "K1=1", "11"}}) {
        for (const std::string engine : {"enumerate", "smt"}) {
            const auto run = test::run_cli({"wcrt", c.file, "--engine", engine, "--op", c.op, "--json"});
            INFO("wcrt " << c.file << " --engine " << engine << "\n" << run.out << run.err);
            REQUIRE((run.exit_code == 0 || run.exit_code == 2));
            const json j = json::parse(run.out);
            const json& a = j["operations"][0];
            CHECK(a["wcrt"] == c.worst);
            // Exact only when the proven upper bound meets it; otherwise the grid is named.
            if (a["status"] != "exact")
                CHECK(a["unknown_reason"].get<std::string>().find("grid 1/2") != std::string::npos);
            const auto cert =
                test::run_cli({"certify", c.file, "--engine", engine, "--bound", c.bound, "--only-bounds"});
            INFO("certify\n" << cert.out << cert.err);
            CHECK(cert.exit_code == 1);  // refuted by a replayed grid scenario
        }
    }
}

TEST_CASE("the grid is needed: simulate finds responses beyond the hi/lo scenario", "[verdicts][cli]") {
    const std::string dir = test::temp_dir();
    // Enumeration at hi alone would call K2 = 3/2 exact; K1's block at 0.5 gives K2 = 2.
    const auto at_hi = test::run_cli({"simulate", test::write_file(dir, "hi.toml", interval_case("1")), "--json"});
    const auto inside = test::run_cli({"simulate", test::write_file(dir, "half.toml", interval_case("0.5")), "--json"});
    REQUIRE(at_hi.exit_code == 0);
    REQUIRE(inside.exit_code == 0);
    CHECK(response_of(at_hi.out, "K2") == "3/2");
    CHECK(response_of(inside.out, "K2") == "2");
    // Enumeration at lo called K1 = 1 and K2 = 21/2 exact; K1 issued at 0.5 gives 11 for either.
    const std::string mid = test::write_file(dir, "mid.toml", window_case("0.5"));
    const auto at_lo = test::run_cli({"simulate", test::write_file(dir, "lo.toml", window_case("0")), "--json"});
    const auto k1_first = test::run_cli({"simulate", mid, "--json"});
    const auto k2_first = test::run_cli({"simulate", mid, "--order", "K2,K1", "--json"});
    REQUIRE(at_lo.exit_code == 0);
    REQUIRE(k1_first.exit_code == 0);
    REQUIRE(k2_first.exit_code == 0);
    CHECK(response_of(at_lo.out, "K1") == "1");
    CHECK(response_of(at_lo.out, "K2") == "21/2");
    CHECK(response_of(k1_first.out, "K2") == "11");
    CHECK(response_of(k2_first.out, "K1") == "11");
}

namespace {

void point_ranges_answer_as_plain_values(std::uint64_t first_seed, std::uint64_t last_seed) {
    const std::string dir = test::temp_dir();
    const std::regex block_time(R"(block_time = ([^\[\n]+))"), issue(R"(issue = ([^\[\n]+))");
    for (std::uint64_t seed = first_seed; seed <= last_seed; ++seed) {
        RandomWorkloadSpec spec;
        spec.kernels = 3;
        spec.streams = 2 + static_cast<int>(seed % 2);
        spec.max_blocks = 3;
        spec.block_time_denominator = 2;
        spec.staggered_issue = true;
        spec.deadlines = true;
        const std::string plain_text = workload_to_toml(random_workload(spec, seed));
        std::string point_text = std::regex_replace(plain_text, block_time, "block_time = [$1, $1]");
        point_text = std::regex_replace(point_text, issue, "issue = [$1, $1]");
        REQUIRE(point_text.find("block_time = [") != std::string::npos);
        REQUIRE(point_text.find("issue = [") != std::string::npos);
        const std::string plain = test::write_file(dir, "plain" + std::to_string(seed) + ".toml", plain_text);
        const std::string point = test::write_file(dir, "point" + std::to_string(seed) + ".toml", point_text);
        for (const std::string engine : {"enumerate", "smt"}) {
            INFO("seed " << seed << ", engine " << engine << "\n" << point_text);
            const auto a = test::run_cli({"wcrt", plain, "--engine", engine, "--json"});
            const auto b = test::run_cli({"wcrt", point, "--engine", engine, "--json"});
            INFO(a.err << b.err);
            REQUIRE(a.exit_code == 0);
            REQUIRE(b.exit_code == 0);
            CHECK(verdict_part(a.out) == verdict_part(b.out));
            const auto c = test::run_cli({"certify", plain, "--engine", engine, "--json"});
            const auto d = test::run_cli({"certify", point, "--engine", engine, "--json"});
            CHECK(c.exit_code == d.exit_code);
            CHECK(verdict_part(c.out) == verdict_part(d.out));
        }
    }
}

}  // namespace

TEST_CASE("point intervals [x, x] and point windows answer exactly as the plain values", "[verdicts][cli]") {
    point_ranges_answer_as_plain_values(1, 2);
}

TEST_CASE("point intervals and point windows answer as the plain values, seeds 3-4", "[verdicts][cli][slow]") {
    point_ranges_answer_as_plain_values(3, 4);
}

TEST_CASE("certify --bound: once per operation, checked, and --only-bounds", "[verdicts][certify][cli]") {
    // The issue's case: 0.5 alone is refuted; with a second --bound the last one used to win.
    const auto twice = test::run_cli({"certify", block_analysis_1, "--bound", "t4=0.5", "--bound", "t4=5"});
    CHECK(twice.exit_code == 3);
    CHECK(twice.out.empty());
    CHECK(twice.err == "gpuwcrt: --bound: operation 't4' is given twice (0.5 and 5)\n");

    struct Bad {
        std::string value, message;
    };
    for (const Bad& b :
         {Bad{"t4", "expected NAME=VALUE, got 't4'"}, Bad{"=5", "expected NAME=VALUE, the name is empty in '=5'"},
          Bad{"nope=5", "unknown operation 'nope' (in 'nope=5')"},
          Bad{"t4=abc", "'abc' is not a time >= 0 (in 't4=abc')"}, Bad{"t4=-1", "'-1' is not a time >= 0 (in 't4=-1')"},
          Bad{"t4=nan", "'nan' is not a time >= 0 (in 't4=nan')"}, Bad{"t4=", "'' is not a time >= 0 (in 't4=')"},
          Bad{"t4=1e-999999", "'1e-999999' has an exponent of more than 4 digits (in 't4=1e-999999')"}}) {
        const auto run = test::run_cli({"certify", block_analysis_1, "--bound", b.value});
        INFO(b.value);
        CHECK(run.exit_code == 3);
        CHECK(run.err == "gpuwcrt: --bound: " + b.message + "\n");
    }

    // Default: --bound replaces t1's deadline only; t4's file deadline 15 is still checked
    // (and refuted: its worst case is 20).
    const auto replace = test::run_cli({"certify", block_analysis_1, "--bound", "t1=100", "--json"});
    CHECK(replace.exit_code == 1);
    const json all = json::parse(replace.out)["operations"];
    CHECK(all.size() == 5);
    CHECK(all[0]["name"] == "t1");
    CHECK(all[0]["bound"] == "100");
    CHECK(all[3]["name"] == "t4");
    CHECK(all[3]["verdict"] == "refuted");
    // --only-bounds: only t1 is checked.
    const auto only = test::run_cli({"certify", block_analysis_1, "--only-bounds", "--bound", "t1=100", "--json"});
    CHECK(only.exit_code == 0);
    const json one = json::parse(only.out)["operations"];
    REQUIRE(one.size() == 1);
    CHECK(one[0]["name"] == "t1");
    CHECK(one[0]["verdict"] == "certified");
    const auto nothing = test::run_cli({"certify", block_analysis_1, "--only-bounds"});
    CHECK(nothing.exit_code == 3);
    CHECK(nothing.err == "gpuwcrt: --only-bounds: needs at least one --bound NAME=VALUE\n");
}

TEST_CASE("wcrt and rta-check: --rta-timeout is checked like --timeout, before any work", "[verdicts][cli]") {
    for (const std::string command : {"wcrt", "rta-check"}) {
        for (const std::string bad : {"0", "-1", "abc", "1e400"}) {
            const auto run = test::run_cli({command, block_analysis_1, "--rta-timeout", bad});
            INFO(command << " --rta-timeout '" << bad << "'\n" << run.err);
            CHECK(run.exit_code == 3);
            CHECK(run.out.empty());
            CHECK(run.err.rfind("gpuwcrt: --rta-timeout: must be ", 0) == 0);
        }
    }
    // A valid one: the column is filled (this workload's search ends in milliseconds).
    const auto run = test::run_cli({"wcrt", block_analysis_1, "--rta-timeout", "5", "--json"});
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    const json out = json::parse(run.out);  // a range-for over a temporary's member would dangle
    for (const auto& op : out["operations"]) CHECK(op["rta_max_over_orders"].is_string());
}

TEST_CASE("wcrt and certify: --timeout must be a number of seconds in [0.001, 10^7], for wcrt and certify",
          "[verdicts][cli]") {
    for (const std::string command : {"wcrt", "certify"}) {
        for (const std::string bad : {"nan", "inf", "0", "-5", "abc", "", "1/0"}) {
            const auto run = test::run_cli({command, block_analysis_1, "--timeout", bad});
            INFO(command << " --timeout '" << bad << "'\n" << run.err);
            CHECK(run.exit_code == 3);
            CHECK(run.out.empty());
            CHECK(run.err ==
                  "gpuwcrt: --timeout: must be a positive number of seconds, got " + (bad.empty() ? "''" : bad) + "\n");
        }
        for (const std::string out_of_range : {"1e400", "10000001", "0.0001", "1e-999999", "1e999999", "1e-9_999_99"}) {
            const auto run = test::run_cli({command, block_analysis_1, "--timeout", out_of_range});
            INFO(command << " --timeout " << out_of_range);
            CHECK(run.exit_code == 3);
            CHECK(run.err ==
                  "gpuwcrt: --timeout: must be between 0.001 and 10000000 seconds, got " + out_of_range + "\n");
        }
    }
    // The limits themselves are accepted (a bound at the busy-time bound needs no search).
    for (const std::string ok : {"0.001", "10000000"}) {
        const auto run =
            test::run_cli({"certify", block_analysis_1, "--only-bounds", "--bound", "t1=100", "--timeout", ok});
        INFO(ok << "\n" << run.err);
        CHECK(run.exit_code == 0);
    }
}

TEST_CASE("wcrt --witness writes a TOML that simulate replays to the reported WCRT", "[verdicts][wcrt][cli]") {
    const std::string dir = test::temp_dir();
    // t4's worst case (20) needs a launch order and SM placement other than the file's (17).
    const std::string witness = dir + "/t4.toml";
    const auto run = test::run_cli({"wcrt", block_analysis_1, "--op", "t4", "--witness", witness, "--json"});
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    const std::string wcrt = json::parse(run.out)["operations"][0]["wcrt"];
    const auto file_order = test::run_cli({"simulate", block_analysis_1, "--json"});
    const auto replay = test::run_cli({"simulate", witness, "--json"});
    REQUIRE(replay.exit_code == 0);
    CHECK(response_of(replay.out, "t4") == wcrt);
    CHECK(response_of(file_order.out, "t4") != wcrt);

    // Several operations: the witness is the first analysed one's (here t3, the first --op).
    const std::string first = dir + "/first.toml";
    const auto two = test::run_cli(
        {"wcrt", test::source_path("cases/thesis/example.toml"), "--op", "t3", "--op", "t1", "--witness", first});
    REQUIRE(two.exit_code == 0);
    CHECK(two.out.find("wrote " + first) != std::string::npos);
    const auto two_json =
        test::run_cli({"wcrt", test::source_path("cases/thesis/example.toml"), "--op", "t3", "--op", "t1", "--json"});
    const auto replay_first = test::run_cli({"simulate", first, "--json"});
    CHECK(response_of(replay_first.out, "t3") == json::parse(two_json.out)["operations"][0]["wcrt"]);

    // --op names each operation once, in the one CLI error format.
    const auto dup = test::run_cli({"wcrt", block_analysis_1, "--op", "t1", "--op", "t1"});
    CHECK(dup.exit_code == 3);
    CHECK(dup.err == "gpuwcrt: --op: operation 't1' is given twice\n");
    const auto unknown = test::run_cli({"wcrt", block_analysis_1, "--op", "nope"});
    CHECK(unknown.exit_code == 3);
    CHECK(unknown.err == "gpuwcrt: --op: unknown operation 'nope'\n");
}

TEST_CASE("no output overwrites an input, nor another output - nothing is written", "[verdicts][cli]") {
    const std::string dir = test::temp_dir();
    const std::string original = test::slurp(block_analysis_1);
    const std::string input = test::write_file(dir, "w.toml", original);
    std::filesystem::create_directory(dir + "/sub");
    std::filesystem::create_symlink(input, dir + "/link.toml");
    const std::string examiner =
        test::write_file(dir, "config.json", test::slurp(test::source_path("tests/data/thesis-tx2-traces/rta.json")));
    const std::string log = test::write_file(
        dir, "log.json", test::slurp(test::source_path("tests/data/thesis-tx2-traces/concurrent_1st_1.json")));
    const std::string imported = dir + "/rta.toml";
    REQUIRE(test::run_cli({"import-examiner", examiner, "-o", imported}).exit_code == 0);
    struct Case {
        std::vector<std::string> args;
        std::string option, target;
    };
    for (const Case& c : {
             Case{{"simulate", input, "--svg", input}, "--svg", input},
             Case{{"simulate", input, "--svg", dir + "/sub/../w.toml"}, "--svg", input},
             Case{{"simulate", input, "--svg", dir + "/link.toml"}, "--svg", input},
             Case{{"certify", input, "--counterexample", input}, "--counterexample", input},
             Case{{"certify", input, "--svg", input}, "--svg", input},
             Case{{"wcrt", input, "--op", "t1", "--witness", input}, "--witness", input},
             Case{{"import-examiner", examiner, "-o", examiner}, "--output", examiner},
             Case{{"compare-trace", imported, log, "--svg", log}, "--svg", log},
         }) {
        const std::string before = test::slurp(c.target);
        const auto run = test::run_cli(c.args);
        INFO(c.args[0] << " " << c.option << "\n" << run.err);
        CHECK(run.exit_code == 3);
        CHECK(run.out.empty());
        CHECK(run.err.rfind("gpuwcrt: " + c.option + ": ", 0) == 0);
        CHECK(run.err.find("is the input file") != std::string::npos);
        CHECK(test::slurp(c.target) == before);  // byte for byte
    }
    CHECK(test::slurp(input) == original);

    // Two outputs of one command on the same file: refused before either is written.
    const std::string both = dir + "/both.toml";
    const auto two = test::run_cli({"certify", input, "--counterexample", both, "--svg", both});
    CHECK(two.exit_code == 3);
    CHECK(two.err ==
          "gpuwcrt: --svg: '" + both + "' is also the --counterexample output; give each output its own path\n");
    CHECK_FALSE(std::filesystem::exists(both));
    // An output that cannot be written is refused before the run, not after it.
    const auto no_dir = test::run_cli({"certify", input, "--counterexample", dir + "/missing/cex.toml"});
    CHECK(no_dir.exit_code == 3);
    CHECK(no_dir.err == "gpuwcrt: --counterexample: the directory of '" + dir + "/missing/cex.toml' does not exist\n");
    const auto is_dir = test::run_cli({"wcrt", input, "--op", "t1", "--witness", dir + "/sub"});
    CHECK(is_dir.exit_code == 3);
    CHECK(is_dir.err == "gpuwcrt: --witness: '" + dir + "/sub' is a directory; give a file name\n");
    // A file that merely looks like the temporary of an output is not replaced either.
    test::write_file(dir, "chart.svg.tmp", "keep me");
    const auto sim = test::run_cli({"simulate", input, "--svg", dir + "/chart.svg"});
    CHECK(sim.exit_code == 0);
    CHECK(test::slurp(dir + "/chart.svg.tmp") == "keep me");
    CHECK(test::slurp(dir + "/chart.svg").find("<svg") != std::string::npos);
}
