// The engines stay inside the memory budget by design (common/budget.hpp, Budget::memory_bytes):
// the SMT engine estimates its encoding before building it and declines one that would not
// fit, and measures Z3's allocations while building; the exact search and the abstraction
// count what their levels hold and stop there. A run under a small --max-memory therefore ends
// normally, with a whole JSON and its proven bounds, within the limit (peak RSS measured here),
// instead of meeting the hard limit (RLIMIT_AS) and printing no answer.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>

#include <nlohmann/json.hpp>
#include <z3++.h>

#include "bounds/abstraction/explorer.hpp"
#include "bounds/abstraction/bounds.hpp"
#include "encode/block/encoding_size.hpp"
#include "encode/block/time_indexed_encoding.hpp"
#include "model/io/write_toml.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

struct MeasuredRun {
    test::CliRun run;
    long peak_rss_mib = 0;  // of the gpuwcrt process alone (wait4)
};

// Runs the built binary with `args` and measures its own peak resident memory.
MeasuredRun run_measured(const std::vector<std::string>& args) {
    const std::string dir = test::temp_dir(), out = dir + "/out", err = dir + "/err";
    const pid_t pid = test::spawn_cli(args, out, err);
    int status = 0;
    rusage usage{};
    MeasuredRun m;
    if (pid > 0 && wait4(pid, &status, 0, &usage) == pid) {
        m.run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        m.peak_rss_mib = usage.ru_maxrss / 1024;  // Linux: KiB
    }
    m.run.out = test::slurp(out);
    m.run.err = test::slurp(err);
    return m;
}

// bench/limits/gen_streams.py 2 4 2: two streams of ranged kernels with issue windows and a
// high-priority stream, which the abstraction leaves open in a second; its time-indexed encoding
// takes about 340 MiB to build (bench/RESULTS.md, "memory"), more than the SMT engine's share
// under --max-memory 300.
std::string streams_2x4() { return test::source_path("tests/data/memory/streams-2x4.toml"); }

// bench/wcrt's family at n = 10 (seed 10000): the exact search stores about 2.9 million states,
// more than the engines' share of --max-memory 300 (about 60 %, Budget::memory_bytes) holds.
std::string ten_simultaneous_kernels() {
    RandomWorkloadSpec spec;
    spec.kernels = 10;
    spec.streams = 10;
    const std::string file = test::temp_dir() + "/n10.toml";
    std::ofstream(file) << workload_to_toml(random_workload(spec, 10000));
    return file;
}

}  // namespace

TEST_CASE("the time-indexed encoding's size is counted before building it, within a few percent",
          "[memory][encoding]") {
    RandomWorkloadSpec plain;
    plain.kernels = 6;
    RandomWorkloadSpec extended = plain;
    extended.copy_percent = 30;
    extended.high_priority_streams = 1;
    extended.interval_percent = 50;
    extended.window_percent = 50;
    extended.staggered_issue = true;
    for (const RandomWorkloadSpec& spec : {plain, extended})
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
            const BlockProblem p = make_block_problem(random_workload(spec, seed));
            z3::context ctx;
            const TimeIndexedEncoding e(ctx, p, BlockEncodingOptions{});
            const auto built = static_cast<std::uint64_t>(e.constraints().size());
            const std::uint64_t counted = time_indexed_constraints(p, Policy::chooser);
            INFO("seed " << seed << ", extended " << p.extended() << ": built " << built << ", counted " << counted);
            // Every family is counted, and the few counted as if every sum could exceed its
            // capacity stay a small part.
            CHECK(counted >= built);
            CHECK(counted <= built + built / 5 + 64);
        }
}

TEST_CASE("an encoding that grows past its memory share stops being built", "[memory][encoding][nosan]") {
    const Workload w = load_workload_file(streams_2x4());
    const BlockProblem p = make_block_problem(w);
    z3::context ctx;
    BlockEncodingOptions o;
    const std::size_t before = static_cast<std::size_t>(Z3_get_estimated_alloc_size());
    o.budget.memory_bytes = before + (std::size_t(32) << 20);
    const TimeIndexedEncoding e(ctx, p, o);
    // Built whole, it takes about ten times that (bench/RESULTS.md, "memory"); Z3 grows its
    // tables by doubling, so the build stops a step past the share.
    CHECK(e.interrupted());
    CHECK(static_cast<std::size_t>(Z3_get_estimated_alloc_size()) < before + (std::size_t(128) << 20));
}

TEST_CASE("an abstraction round that would outgrow the memory budget stops, the earlier bounds stand",
          "[memory][abstraction]") {
    RandomWorkloadSpec spec;
    spec.kernels = 12;
    spec.streams = 4;
    spec.interval_percent = 50;
    const Workload w = random_workload(spec, 7);
    const abstraction::Problem p(w);
    Budget roomy;
    const abstraction::ExploreResult whole = abstraction::explore(p, {4, 8}, roomy);
    REQUIRE(whole.complete);
    Budget tight;
    tight.memory_bytes = 64 * 1024;
    const abstraction::ExploreResult cut = abstraction::explore(p, {4, 8}, tight);
    CHECK_FALSE(cut.complete);
    CHECK(cut.out_of_memory);
    CHECK(cut.states < whole.states);
    // The engine answers "memory limit", never a bound of the cut round: the interference bound
    // (computed first, in no table) still bounds every operation.
    const BoundsResult r = abstraction_bounds(w, EngineOptions{}, tight);
    for (const WcrtAnswer& a : r.wcrt) {
        CHECK(a.upper.has_value());
        if (a.status != WcrtStatus::exact) CHECK(a.unknown_reason == "memory limit");
    }
}

TEST_CASE("wcrt under --max-memory 300 declines an SMT encoding that would not fit and ends with its bounds",
          "[memory][cli][nosan]") {
    const MeasuredRun m = run_measured({"wcrt", streams_2x4(), "--max-memory", "300", "--timeout", "60", "--json"});
    INFO(m.run.out << m.run.err);
    CHECK((m.run.exit_code == 0 || m.run.exit_code == 2));
    const nlohmann::json j = nlohmann::json::parse(m.run.out);  // whole
    for (const auto& op : j.at("operations")) CHECK_FALSE(op.at("upper_bound").is_null());
    bool declined = false;
    for (const auto& step : j.at("stats").at("steps"))
        declined = declined || test::contains(step.get<std::string>(), "smt: no solver: its time-indexed encoding");
    CHECK(declined);
    CHECK(m.peak_rss_mib <= 300);
}

TEST_CASE("the exact search under --max-memory 300 stops at its budget with a whole answer", "[memory][cli][slow]") {
    const MeasuredRun m = run_measured(
        {"wcrt", ten_simultaneous_kernels(), "--engine", "exact", "--max-memory", "300", "--timeout", "60", "--json"});
    INFO(m.run.out << m.run.err);
    CHECK(m.run.exit_code == 2);
    const nlohmann::json j = nlohmann::json::parse(m.run.out);  // whole
    CHECK(j.at("stats").at("states").get<long long>() > 0);
    for (const auto& op : j.at("operations")) {
        CHECK(op.at("unknown_reason") == "memory limit");
        CHECK_FALSE(op.at("lower_bound").is_null());  // replayed, after the levels were freed
    }
    CHECK(m.peak_rss_mib <= 300);
}

TEST_CASE("a slice smaller than the whole run does not end it: a solver stopped there is freed", "[memory][budget]") {
    Budget run = Budget::for_timeout(std::chrono::milliseconds(60'000));
    run.leave_table_on_timeout = true;                    // the commands' run budget (app/engine_run.cpp)
    CHECK(run.slice(1, 1).leave_table_on_timeout);        // the last operation's share: the run's end
    CHECK_FALSE(run.slice(1, 3).leave_table_on_timeout);  // one of three operations' share
    CHECK_FALSE(run.slice(1, 3).slice(1, 1).leave_table_on_timeout);
    CHECK(run.capped(std::chrono::milliseconds(10)).leave_table_on_timeout);  // the output's reserve
}
