// `gpuwcrt warp` / `warp-sweep` as a user meets them: every bad value is exit 3 with
// one "gpuwcrt: --option: ..." line, limits and budgets end in "unknown" (exit 2), never a
// crash, a hang or exit 4; the default engine answers fast; sweep exit codes.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <nlohmann/json.hpp>

#include "support.hpp"

using namespace gpuwcrt;

namespace {

std::string quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// run_cli under an address-space limit (util-linux prlimit), as --max-memory or a container
// would impose it; exit_code -1 means the process died of a signal.
test::CliRun run_limited(long long bytes, const std::vector<std::string>& args) {
    const std::string dir = test::temp_dir(), out = dir + "/out", err = dir + "/err";
    std::string cmd = "prlimit --as=" + std::to_string(bytes) + " " + quote(GPUWCRT_BINARY);
    for (const auto& a : args) cmd.append(" ").append(quote(a));
    cmd.append(" </dev/null >").append(quote(out)).append(" 2>").append(quote(err));
    const int status = std::system(cmd.c_str());
    test::CliRun r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = test::slurp(out);
    r.err = test::slurp(err);
    std::system(("rm -rf " + quote(dir)).c_str());
    return r;
}

double seconds_of(const std::function<void()>& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();  // wall clock, not model time
}

void require_input_error(const std::vector<std::string>& args, const std::string& message) {
    INFO("gpuwcrt " << [&] {
        std::string s;
        for (const auto& a : args) s += a + " ";
        return s;
    }());
    const auto r = test::run_cli(args);
    CHECK(r.exit_code == 3);
    CHECK(r.err == message + "\n");
    CHECK(r.out.empty());
}

}  // namespace

TEST_CASE("warp: the crash and exit-4 reproducers are input errors in the one CLI format", "[warp][cli]") {
    require_input_error({"warp", "--threads", "64", "--cuda", "0"},
                        "gpuwcrt: --cuda: must be a positive integer, got 0");
    require_input_error({"warp", "--threads", "64", "--ldst", "0"},
                        "gpuwcrt: --ldst: must be a positive integer, got 0");
    require_input_error({"warp", "--threads", "100000", "--rep", "100"},
                        "gpuwcrt: --threads: must be at most 65536 (4096 warps of 16 threads), got 100000");
    require_input_error({"warp", "--threads", "1000000000000"},
                        "gpuwcrt: --threads: must be at most 65536 (4096 warps of 16 threads), got 1000000000000");
    require_input_error({"warp", "--threads", "64", "--warp-size", "0"},
                        "gpuwcrt: --warp-size: must be a positive integer, got 0");
    require_input_error({"warp", "--threads", "0"}, "gpuwcrt: --threads: must be a positive integer, got 0");
    require_input_error({"warp", "--threads", "abc"}, "gpuwcrt: --threads: must be a positive integer, got 'abc'");
    require_input_error({"warp", "--threads", "1e99"}, "gpuwcrt: --threads: must be a positive integer, got '1e99'");
    require_input_error({"warp", "--warps", "4097"}, "gpuwcrt: --warps: must be at most 4096, got 4097");
    require_input_error({"warp", "--threads", "64", "--latency", "L=0"},
                        "gpuwcrt: --latency: must be a positive integer, got 0");
    require_input_error({"warp", "--threads", "64", "--latency", "X=2"},
                        "gpuwcrt: --latency: must be CLASS=CYCLES with CLASS C, L or S, got 'X=2'");
    require_input_error({"warp", "--threads", "64", "--latency", "L=2", "--latency", "L=3"},
                        "gpuwcrt: --latency: L given twice");
    require_input_error({"warp", "--threads", "64", "--engine", "fast"},
                        "gpuwcrt: --engine: must be auto, bounds, explicit, smt or both, got 'fast'");
    require_input_error({"warp", "--threads", "16", "--warps", "1"},
                        "gpuwcrt: --threads: give --threads or --warps, not both");
    require_input_error(
        {"warp", "--threads", "64", "--cuda", "3", "--program", test::source_path("cases/raravi2010/fermi.toml")},
        "gpuwcrt: --cuda: cannot be combined with --program (the file defines the machine)");
    const std::string dir = test::temp_dir();  // a directory is not a program file (was exit 4)
    require_input_error({"warp", "--program", dir, "--threads", "64"}, dir + ": is a directory");
}

TEST_CASE("warp: no value is silently reinterpreted (rep 0/-1, timeout -5, issue-limit 0)", "[warp][cli]") {
    require_input_error({"warp", "--threads", "64", "--rep", "0"}, "gpuwcrt: --rep: must be a positive integer, got 0");
    require_input_error({"warp", "--threads", "64", "--rep", "-1"},
                        "gpuwcrt: --rep: must be a positive integer, got -1");
    for (const std::string t : {"-5", "0", "10000000"})
        require_input_error(
            {"warp", "--threads", "64", "--timeout", t},
            "gpuwcrt: --timeout: must be a positive number of seconds up to 1000000 (e.g. 5 or 0.5), got " + t);
    for (const std::string t : {"nan", "inf", "1e3", ""})
        require_input_error(
            {"warp", "--threads", "64", "--timeout", t},
            std::string("gpuwcrt: --timeout: must be a positive number of seconds up to 1000000 (e.g. 5 or 0.5), got '")
                .append(t)
                .append("'"));
    require_input_error({"warp", "--threads", "64", "--issue-limit", "0"},
                        "gpuwcrt: --issue-limit: must be a positive integer, got 0");
    require_input_error({"warp", "--threads", "64", "--issue-limit", "-2"},
                        "gpuwcrt: --issue-limit: must be a positive integer, got -2");
    // A real issue limit of one slot changes the answer; its absence means no limit.
    const auto limited =
        test::run_cli({"warp", "--threads", "32", "--issue-limit", "1", "--engine", "explicit", "--json"});
    const auto free = test::run_cli({"warp", "--threads", "32", "--engine", "explicit", "--json"});
    REQUIRE(limited.exit_code == 1);  // one slot for two warps: FT no longer holds
    REQUIRE(free.exit_code == 0);
    CHECK(nlohmann::json::parse(limited.out)["worst"] > nlohmann::json::parse(free.out)["worst"]);
}

TEST_CASE("warp: documented size limits are checked before any engine runs", "[warp][cli]") {
    require_input_error(
        {"warp", "--threads", "16", "--rep", "3334"},
        "gpuwcrt: --rep: makes the program longer than 10000 instructions (prologue + rep x body + epilogue), "
        "got 3334");
    require_input_error(
        {"warp", "--warps", "4096", "--rep", "1000", "--latency", "L=1024"},
        "gpuwcrt: --warps: 4096 warps x 2049002 cycles of program each exceed the limit of 10^9 cycles");
    const std::string dir = test::temp_dir();
    std::ofstream(dir + "/slow.toml")
        << "[[unit]]\nname = \"u\"\ncapacity = 1\n[[class]]\nletter = \"C\"\nunit = \"u\"\n"
           "latency = 2000\n[program]\nbody = [\"C\"]\n";
    auto r = test::run_cli({"warp", "--warps", "2", "--program", dir + "/slow.toml"});
    CHECK(r.exit_code == 3);
    CHECK(r.err == dir + "/slow.toml:7:11: 'latency' must be in 1..1024, got 2000\n");
    std::ofstream(dir + "/long.toml") << "rep = 5001\n[[unit]]\nname = \"u\"\ncapacity = 1\n[[class]]\nletter = \"C\"\n"
                                         "unit = \"u\"\n[program]\nbody = [\"C\", \"C\"]\n";
    r = test::run_cli({"warp", "--warps", "2", "--program", dir + "/long.toml"});
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.err, Catch::StartsWith(dir + "/long.toml:1:7: the program is longer than 10000 instructions"));
    // At the largest W the explicit engine runs out of time: unknown with its greedy bound.
    r = test::run_cli({"warp", "--warps", "4096", "--timeout", "0.3", "--engine", "explicit"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.out, Catch::Contains("verdict              unknown (timeout; worst case >= "));
    // The default engine proves FT there without a search (lemma 2 of docs/theory/warp/warp-conjecture.md
    // gives 3W + 2 = FT for rep = 1), and says the exact value is unknown.
    r = test::run_cli({"warp", "--warps", "4096", "--timeout", "0.3"});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("verdict              holds (worst case <= 12290 <= FT; exact value unknown)"));
    // With rep = 2 the bound (20483) exceeds FT (20482): unknown, with both bounds.
    r = test::run_cli({"warp", "--warps", "4096", "--rep", "2", "--timeout", "0.3"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.out, Catch::Contains("verdict              unknown (timeout; worst case >= "));
    CHECK_THAT(r.out, Catch::Contains("; worst case <= 20483)"));
}

TEST_CASE("warp: out of memory is 'unknown (memory limit)', exit 2, for both engines", "[warp][cli][memory][nosan]") {
    for (const std::string engine : {"explicit", "smt"}) {
        INFO("engine " << engine);
        const auto r = run_limited(120'000'000, {"warp", "--warps", "512", "--rep", "100", "--engine", engine});
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.out, Catch::Contains("verdict              unknown (memory limit"));
        CHECK(r.err.find("internal error") == std::string::npos);
    }
}

TEST_CASE("warp: the default engine answers a large point fast and says what the SMT cross-check did", "[warp][cli]") {
    test::CliRun r;
    // 132 s and 4.2 GB when the default ran both engines in full.
    const double s = seconds_of([&] { r = test::run_cli({"warp", "--threads", "256", "--rep", "8"}); });
    CHECK(s < 10);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("worst-case makespan  274\n"));
    CHECK_THAT(r.out, Catch::Contains("verdict              holds (tight)"));
    CHECK_THAT(r.out, Catch::Contains(
                          "smt cross-check      skipped (W x program length = 416 > 64; --engine both to insist)"));
    CHECK(r.err.empty());  // fast: no progress lines
    // Small points are cross-checked.
    r = test::run_cli({"warp", "--threads", "64", "--rep", "1"});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("smt cross-check      agrees ("));
    r = test::run_cli({"warp", "--threads", "64", "--rep", "1", "--engine", "explicit"});
    CHECK(r.out.find("cross-check") == std::string::npos);
}

TEST_CASE("warp: --timeout bounds the whole point, and progress goes to stderr only after a second", "[warp][cli]") {
    test::CliRun r;
    const double s = seconds_of([&] {
        r = test::run_cli({"warp", "--warps", "4096", "--rep", "2", "--timeout", "1.2"});
    });
    CHECK(s < 1.2 + 2.5);  // the greedy bound after a stop has one second of its own
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::StartsWith("gpuwcrt warp: explicit engine, worst case, "));
    CHECK_THAT(r.err, Catch::Contains(" states, 1 s\n"));
}

TEST_CASE("warp: the SMT engine stops at --timeout, also while it builds the encoding", "[warp][cli]") {
    // On the largest W one cycle of the encoding has 250 000 literals.
    test::CliRun r;
    const double smt = seconds_of([&] {
        r = test::run_cli({"warp", "--warps", "4096", "--rep", "20", "--engine", "smt", "--timeout", "0.5"});
    });
    CHECK(smt < 0.5 + 2.5);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.out, Catch::Contains("verdict              unknown (timeout"));
}

TEST_CASE("warp-sweep: a completed sweep exits 0 even with refuted points, unknown points exit 2", "[warp][cli]") {
    auto r = test::run_cli({"warp-sweep", "--threads", "16:32:16", "--rep", "2:2", "--csv"});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("16,1,2,7,8,8,\"refuted (worst case exceeds FT by 1)\""));
    r = test::run_cli({"warp-sweep", "--threads", "16:32:16", "--rep", "2:2", "--fail-on-refuted"});
    CHECK(r.exit_code == 1);
    r = test::run_cli({"warp-sweep", "--threads", "32:65536:65504", "--rep", "1:1", "--timeout", "0.2"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.out, Catch::Contains("unknown (timeout"));
    // Refuted and unknown together: --fail-on-refuted reports the refutation.
    r = test::run_cli(
        {"warp-sweep", "--threads", "16:65536:65520", "--rep", "2:2", "--timeout", "0.2", "--fail-on-refuted"});
    CHECK(r.exit_code == 1);
    require_input_error({"warp-sweep", "--threads", "16:1"},
                        "gpuwcrt: --threads: must be FIRST:LAST[:STEP] with FIRST <= LAST, got '16:1'");
    require_input_error({"warp-sweep", "--threads", "0:16"},
                        "gpuwcrt: --threads: FIRST:LAST[:STEP]: each part must be a positive integer, got 0");
    require_input_error({"warp-sweep", "--threads", "1:65536:1", "--rep", "1:2"},
                        "gpuwcrt: --threads: the sweep has 65536 x 2 points, more than the limit of 10000");
    r = test::run_cli({"warp-sweep", "--help"});
    CHECK_THAT(r.out, Catch::Contains("--fail-on-refuted"));
    CHECK_THAT(r.out, Catch::Contains("Exit 0 when the sweep completed"));
}
