// Limits that hold: --timeout reaches into building the SMT encodings, and
// --max-memory turns running out of memory into "unknown (memory limit)", exit 2. The wall
// time of these runs is measured by bench/limits/run.sh, not here; the bounds below are only
// sanity bounds against a hang.
#include <catch2/catch.hpp>

#include <chrono>
#include <fstream>

#include <nlohmann/json.hpp>

#include "encode/block/block_problem.hpp"
#include "model/generate/random_workload.hpp"
#include "model/io/write_toml.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

// 20 kernels issued together, one stream each (bench/wcrt's family at n = 20): building the
// time-indexed encoding for one kernel takes about a second and half a gigabyte.
const test::SimultaneousCase& twenty_simultaneous_kernels() {
    static const test::SimultaneousCase c = test::simultaneous_kernels_file(20, 20000);
    return c;
}

struct TimedRun {
    test::CliRun run;
    double seconds;
};

TimedRun timed(const std::vector<std::string>& args) {
    const auto t0 = std::chrono::steady_clock::now();
    test::CliRun r = test::run_cli(args);
    return {r, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
}

}  // namespace

TEST_CASE("wcrt --timeout 1 on 20 simultaneous kernels stops while building and answers unknown (timeout)",
          "[limits][timeout]") {
    const test::SimultaneousCase& c = twenty_simultaneous_kernels();
    const TimedRun t = timed({"wcrt", c.file, "--timeout", "1", "--json"});
    INFO(t.run.out << t.run.err);
    CHECK(t.run.exit_code == 2);
    CHECK(test::contains(t.run.out, "\"unknown_reason\": \"timeout\""));
    CHECK(t.seconds < 30);
}

TEST_CASE("wcrt --timeout also covers the RTA maximised over launch orders", "[limits][timeout]") {
    // The bench family's 16-kernel workload run 2 (seed 16002): its order search needs about a
    // second (the tail check on four kernels), far more than the 0.05 s the
    // column gets; the engine itself answers within the timeout.
    RandomWorkloadSpec spec;
    spec.kernels = 16;
    spec.streams = 16;
    const Workload w = random_workload(spec, 16002);
    const std::string file = test::temp_dir() + "/sixteen.toml";
    std::ofstream(file) << workload_to_toml(w);
    const TimedRun t = timed({"wcrt", file, "--timeout", "0.05"});
    INFO(t.run.out << t.run.err);
    CHECK(t.run.exit_code == 2);
    // The order search cannot decide every kernel in the time: the note says it stopped, and
    // each open kernel shows its interval in the column (never a bare '-').
    CHECK(test::contains(t.run.out, "rta(max over orders) stopped: "));
    CHECK(test::contains(t.run.out, "undecided"));
    CHECK(test::contains(t.run.out, "an undecided maximum shows [lower, upper]"));
    CHECK(t.seconds < 30);
}

TEST_CASE("certify --timeout 1 on 20 simultaneous kernels is unknown, never certified", "[limits][timeout]") {
    const test::SimultaneousCase& c = twenty_simultaneous_kernels();
    // Just under the bounds proven without a search: only a finished search could certify it.
    const std::string bound = "K1=" + exact_string(c.k1_proven - Time(1, 2));
    const TimedRun t = timed({"certify", c.file, "--bound", bound, "--timeout", "1"});
    INFO(t.run.out << t.run.err);
    CHECK(t.run.exit_code == 2);
    CHECK(test::contains(t.run.out, "unknown (timeout)"));
    CHECK_FALSE(test::contains(t.run.out, "certified"));
    CHECK(t.seconds < 30);
}

TEST_CASE("a run that needs more than --max-memory is unknown (memory limit), with its bounds",
          "[limits][memory][slow][nosan]") {
    const test::SimultaneousCase& c = twenty_simultaneous_kernels();
    // The encoding for K1 alone needs about 500 MiB; the timeout only guards against a hang.
    const auto wcrt = test::run_cli({"wcrt", c.file, "--op", "K1", "--max-memory", "200", "--timeout", "60", "--json"});
    INFO(wcrt.out << wcrt.err);
    CHECK(wcrt.exit_code == 2);
    CHECK(test::contains(wcrt.out, "\"unknown_reason\": \"memory limit\""));
    // What was proven before memory ran out is kept: at most the busy-time bound (the bounds
    // engine may tighten it when the machine gives it time), never below the replayed witness.
    const nlohmann::json j = nlohmann::json::parse(wcrt.out);
    const nlohmann::json& k1 = j.at("operations").at(0);
    const Time upper = parse_time(k1.at("upper_bound").get<std::string>()).value();
    CHECK(upper <= c.k1_upper);
    CHECK(parse_time(k1.at("lower_bound").get<std::string>()).value() <= upper);

    const std::string bound = "K1=" + exact_string(c.k1_proven - Time(1, 2));
    const auto certify = test::run_cli({"certify", c.file, "--bound", bound, "--max-memory", "100", "--timeout", "60"});
    INFO(certify.out << certify.err);
    CHECK(certify.exit_code == 2);
    CHECK(test::contains(certify.out, "unknown (memory limit)"));
}

TEST_CASE("after Z3 runs out of memory once, the other kernels are unknown (memory limit), not a crash",
          "[limits][memory][slow][nosan]") {
    const test::SimultaneousCase& c = twenty_simultaneous_kernels();
    const auto r = test::run_cli({"wcrt", c.file, "--op", "K1", "--op", "K2", "--op", "K3", "--max-memory", "64",
                                  "--engine", "smt", "--timeout", "60", "--json"});
    INFO(r.out << r.err);
    CHECK(r.exit_code == 2);
    std::size_t reasons = 0;
    for (std::size_t at = r.out.find("\"memory limit\""); at != std::string::npos;
         at = r.out.find("\"memory limit\"", at + 1))
        ++reasons;
    CHECK(reasons == 3);
    // auto runs the explicit engines first; their freed memory stays mapped, so the run may end
    // before its table: still unknown (memory limit), exit 2, never a crash or a verdict.
    const auto a = test::run_cli(
        {"wcrt", c.file, "--op", "K1", "--op", "K2", "--op", "K3", "--max-memory", "64", "--timeout", "60", "--json"});
    INFO(a.out << a.err);
    CHECK(a.exit_code == 2);
    CHECK(test::contains(a.out + a.err, "memory limit"));
    CHECK_FALSE(test::contains(a.out, "\"status\": \"exact\""));
}

TEST_CASE("memory exhaustion outside the SMT engine is unknown (memory limit) or refused, never a crash",
          "[limits][memory][nosan]") {
    // The explicit warp engine stores every state: a million repetitions need gigabytes.
    const auto r =
        test::run_cli({"warp", "--threads", "64", "--rep", "1000000", "--engine", "explicit", "--max-memory", "100"});
    INFO(r.out << r.err);
    CHECK((r.exit_code == 2 || r.exit_code == 3));  // 3: refused as too large before running
    if (r.exit_code == 2) CHECK(test::contains(r.out + r.err, "unknown (memory limit)"));
}

TEST_CASE("the option --max-memory is accepted before and after the subcommand", "[limits][memory][cli][nosan]") {
    const std::string file = test::source_path("cases/thesis/example.toml");
    const auto after = test::run_cli({"wcrt", file, "--max-memory", "500"});
    INFO(after.out << after.err);
    CHECK(after.exit_code == 0);
    CHECK(test::contains(after.out, "exact"));
    const auto before = test::run_cli({"--max-memory", "500", "wcrt", file});
    CHECK(before.exit_code == 0);
    CHECK(test::contains(before.out, "exact"));
    const auto simulate = test::run_cli({"simulate", file, "--max-memory", "64"});
    CHECK(simulate.exit_code == 0);
}

TEST_CASE("bad --max-memory values are input errors in the CLI format", "[limits][memory][cli]") {
    const std::string file = test::source_path("cases/thesis/example.toml");
    for (const std::string v :
         {"0", "-5", "abc", "1.5", "", "63", "1e3", "+100", "99999999999999999999999", "100000000000"}) {
        const auto r = test::run_cli({"wcrt", file, "--max-memory", v});
        INFO("--max-memory '" << v << "'\n" << r.out << r.err);
        CHECK(r.exit_code == 3);
        CHECK(r.out.empty());
        CHECK(r.err.rfind("gpuwcrt: --max-memory: must be ", 0) == 0);
    }
}

TEST_CASE("a coarse workload on a fine time grid is decided by the event encoding, not overrun", "[limits][timeout]") {
    // Fuzzer run 18675: 400 000 time units make a time-indexed encoding of 1.7 GB that was
    // still being built past --timeout 1; the event encoding decides it at once.
    const std::string file = test::temp_dir() + "/fine.toml";
    std::ofstream(file) << "[[kernel]]\nname = \"K\"\nblocks = 2\nthreads = 512\nblock_time = 400000\n";
    const TimedRun t = timed({"wcrt", file, "--timeout", "1", "--json"});
    INFO(t.run.out << t.run.err);
    CHECK(t.run.exit_code == 0);
    CHECK(test::contains(t.run.out, "\"status\": \"exact\""));
    CHECK(test::contains(t.run.out, "\"wcrt\": \"400000\""));
}
