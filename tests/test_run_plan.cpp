// The plan of --engine auto: its answers against enumeration on seeded workloads with
// every feature auto accepts, the same answers on every run and with 1 or 2 threads, progress
// on stderr at least once a second, and the RTA columns never empty and never holding the run.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <regex>

#include <nlohmann/json.hpp>

#include "model/generate/pipeline_workload.hpp"
#include "model/generate/random_workload.hpp"
#include "model/io/load_toml.hpp"
#include "model/io/write_toml.hpp"
#include "solver/block/plan/auto_engine.hpp"
#include "encode/block/block_problem.hpp"
#include "solver/block/enumerate/enumerate.hpp"
#include "solver/block/plan/run_plan.hpp"
#include "solver/registry.hpp"
#include "support.hpp"

using namespace gpuwcrt;
using PlanJson = nlohmann::json;

namespace {

// Bits of the seed switch the features on: copies, priorities, the NULL stream, staggered
// issues, after_stream_idle, intervals and windows.
RandomWorkloadSpec plan_spec(std::uint64_t seed) {
    RandomWorkloadSpec s;
    s.kernels = 2 + static_cast<int>(seed % 3);        // 2..4 operations
    s.streams = 1 + static_cast<int>((seed / 3) % 3);  // 1..3 streams
    s.threads = {256, 512, 1024};
    s.max_blocks = 2;
    s.max_block_time = 3;
    s.staggered_issue = (seed / 2) % 2 == 1;
    s.sms = 1 + static_cast<int>((seed / 5) % 2);
    s.copy_percent = (seed / 4) % 2 ? 40 : 0;
    s.high_priority_streams = (seed / 8) % 2 && s.streams > 1 ? 1 : 0;
    s.null_stream = (seed / 16) % 2 == 1 && s.streams > 1;
    s.after_idle_percent = (seed / 32) % 2 ? 40 : 0;
    const bool ranges = (seed / 7) % 2 == 1;
    s.interval_percent = ranges ? 30 : 0;
    s.window_percent = ranges ? 30 : 0;
    return s;
}

PlanJson without_timing(PlanJson j) {
    j.erase("stats");               // wall-clock seconds and the steps' times
    j["options"].erase("threads");  // the context repeats the option the runs differ in
    return j;
}

std::string workload_file(const Workload& w, const std::string& name) {
    const std::string file = test::temp_dir() + "/" + name;
    std::ofstream(file) << workload_to_toml(w);
    return file;
}

}  // namespace

TEST_CASE("auto's plan against enumeration on 120 seeded workloads with every feature", "[plan][auto]") {
    int exact = 0, ranged = 0;
    for (std::uint64_t seed = 1; seed <= test::seeded(120); ++seed) {
        const Workload w = random_workload(plan_spec(seed), seed);
        EngineOptions o;
        o.policy = test::policy_for(seed);
        INFO("seed " << seed << "\n" << workload_to_toml(w));
        EnumerationResult e;
        try {
            e = enumerate_wcrt(w, o, Budget{});
        } catch (const InputError&) {
            continue;  // beyond the enumeration's grid
        }
        REQUIRE(e.complete);
        std::vector<int> ops(w.ops.size());
        for (std::size_t i = 0; i < ops.size(); ++i) ops[i] = static_cast<int>(i);
        const EngineRun r = AutoEngine().run(EngineRequest{w, ops, o, {}, {}}, Budget{});
        const bool ranges = has_ranges(w);
        ranged += ranges;
        for (std::size_t i = 0; i < w.ops.size(); ++i) {
            const WcrtAnswer& a = r.answers[i];
            const std::optional<Time>& truth = e.wcrt[i].lower;  // grid maximum with ranges
            INFO(w.ops[i].name);
            REQUIRE(truth);
            REQUIRE(a.upper);
            CHECK(*a.upper >= *truth);
            if (a.lower) CHECK(*a.lower <= *a.upper);
            if (!ranges) {
                CHECK(a.status == WcrtStatus::exact);  // nothing stops these small searches
                CHECK(a.lower == truth);
                exact += a.status == WcrtStatus::exact;
            } else if (a.status == WcrtStatus::exact) {
                CHECK(*a.lower >= *truth);
            }
        }
    }
    if (test::sanitized) return;
    CHECK(exact > 100);
    CHECK(ranged > 20);
}

TEST_CASE("the plan runs the exact search first on a fixed-time pipeline and stops once all is decided",
          "[plan][auto]") {
    PipelineSpec spec;
    spec.streams = 3;
    spec.iterations = 2;
    const Workload w = pipeline_workload(spec, 7);
    const std::vector<PlanStep> plan = make_plan(w, true, true);
    REQUIRE(plan.size() > 1);
    CHECK(plan.front().engine == engine_name::interference);  // a formula, no search
    const PlanStep& first = plan[1];
    CHECK(first.engine == engine_name::exact);
    CHECK(first.bounds_beside);
    CHECK(first.max_states == 0);  // never stopped by a state limit: only by --timeout or --max-memory
    const test::CliRun r = test::run_cli({"wcrt", workload_file(w, "pipe.toml"), "--json"});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    const PlanJson j = PlanJson::parse(r.out);
    for (const PlanJson& op : j["operations"]) CHECK(op["status"] == "exact");
    // Nothing kept after the exact step: the abstraction's answers never count (it may have
    // started beside a slow search and been stopped, "not needed").
    for (const PlanJson& step : j["stats"]["steps"]) {
        const std::string line = step.get<std::string>();
        CHECK((line.rfind("bounds", 0) != 0 || line.find("not needed") != std::string::npos));
        CHECK(line.rfind("smt", 0) != 0);
    }
    for (const PlanJson& op : j["operations"]) CHECK(op["lower_by"] == "exact");
}

TEST_CASE("the plan's links come from the registry: the interference bound first, the busy-time bound last",
          "[plan][auto]") {
    const Workload example = load_workload_file(test::source_path("cases/thesis/example.toml"));
    PipelineSpec spec;
    spec.streams = 3;
    spec.iterations = 2;
    const Workload pipeline = pipeline_workload(spec, 7);
    const Workload ranged = random_workload(plan_spec(7), 7);  // with intervals and windows
    REQUIRE(has_ranges(ranged));
    for (const Workload* w : {&example, &pipeline, &ranged}) {
        const auto p = std::make_shared<const BlockProblem>(make_block_problem(*w));
        const std::vector<PlanStep> plan = make_plan(*w, true, true);
        REQUIRE(plan.size() >= 4);
        CHECK(plan.front().engine == engine_name::interference);
        CHECK(plan.back().engine == engine_name::busy_time);
        CHECK(plan.back().fallback);
        for (const PlanStep& s : plan) {
            INFO(s.engine);
            CHECK(s.estimate > 0);
            CHECK(plan_link(s, p)->name() == s.engine);
        }
        // Without the SMT engine's problem there is no busy-time bound to add.
        const std::vector<PlanStep> no_smt = make_plan(*w, true, false);
        CHECK(no_smt.back().engine != engine_name::busy_time);
    }
    // The two formulas are links of the chain only, not choices of --engine.
    const std::vector<std::string> names = engine_names();
    CHECK(std::find(names.begin(), names.end(), engine_name::interference) == names.end());
    CHECK(std::find(names.begin(), names.end(), engine_name::busy_time) == names.end());
}

TEST_CASE("the same answers on every run and with 1 or 2 threads", "[plan][reproducible]") {
    std::vector<std::string> files;
    for (std::uint64_t seed : {3u, 11u, 21u, 42u, 77u})
        files.push_back(workload_file(random_workload(plan_spec(seed), seed), "r" + std::to_string(seed) + ".toml"));
    PipelineSpec spec;
    spec.streams = 3;
    spec.iterations = 2;
    files.push_back(workload_file(pipeline_workload(spec, 5), "pipeline.toml"));
    RandomWorkloadSpec six;
    six.kernels = 6;
    six.streams = 6;
    files.push_back(workload_file(random_workload(six, 6001), "six.toml"));
    for (const std::string& file : files) {
        INFO(file);
        std::optional<PlanJson> first;
        for (const char* threads : {"1", "2", "1", "2"}) {
            const test::CliRun r = test::run_cli({"wcrt", file, "--json", "--threads", threads});
            INFO(r.err);
            REQUIRE((r.exit_code == 0 || r.exit_code == 2));
            const PlanJson j = without_timing(PlanJson::parse(r.out));
            if (!first) first = j;
            else CHECK(j == *first);
        }
    }
}

// A line comes when its counts move (at most one per 0.9 s) and again unchanged after 5 s, so
// no gap is longer than 5 s (the rule itself: test_progress_line.cpp); a level of the exact
// search may keep its counts still for seconds. Half a second of slack: CTest runs other tests
// beside this one, and on a loaded machine the thread that prints waits for a core.
TEST_CASE("progress: the first line in the first second, then never more than 5 s of silence", "[plan][progress]") {
    const test::SimultaneousCase& c = test::simultaneous_kernels_file(20, 1);
    const auto t0 = std::chrono::steady_clock::now();
    const test::CliRun r = test::run_cli({"wcrt", c.file, "--timeout", "3", "--engine", "exact"});
    const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    INFO(r.err);
    REQUIRE(total > 2);
    const std::regex stamp(R"(^gpuwcrt wcrt \[(\d+)\.(\d) s\] (.*)$)");
    double last = 0;
    int lines = 0;
    std::istringstream in(r.err);
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (!std::regex_match(line, m, stamp)) continue;
        const double at = std::stod(m[1].str()) + std::stod(m[2].str()) / 10;
        CHECK(at - last <= (lines == 0 ? 1.55 : 5.55));  // the stamp is cut to tenths
        last = at;
        ++lines;
    }
    CHECK(lines >= 1);
    CHECK(total - last <= 5.55);  // the end of the run: the last line, then the output
}

TEST_CASE("progress of --engine bounds: each line names its phase, the abstraction's with its states so far",
          "[plan][progress][slow]") {
    // 6 s: the probe round ends within 2 s; the next one runs long enough for a heartbeat.
    const test::CliRun r =
        test::run_cli({"wcrt", "bench/camera/newcomer-ranged.toml", "--engine", "bounds", "--timeout", "6"});
    INFO(r.err);
    const std::regex stamp(R"(^gpuwcrt wcrt \[\d+\.\d s\] (.*)$)");
    // The counters: operations decided and the worst open operation's proven bounds.
    const std::regex abstraction(
        R"(^bounds: abstraction, \d+ of 18 operations decided, worst open \S+ in \[[0-9./]+, [0-9./]+\], (\d+) states$)");
    int phase_lines = 0, abstraction_lines = 0;
    std::istringstream in(r.err);
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (!std::regex_match(line, m, stamp)) continue;
        const std::string what = m[1].str();
        if (what.rfind("abstraction with ", 0) == 0) continue;  // a round's own line
        CHECK(what.rfind("bounds: ", 0) == 0);
        ++phase_lines;
        if (std::regex_match(what, abstraction)) ++abstraction_lines;
    }
    CHECK(phase_lines >= 2);
    CHECK(abstraction_lines >= 1);
}

TEST_CASE("rta(max over orders): an interval for every kernel the search leaves open, never empty", "[plan][rta]") {
    RandomWorkloadSpec spec;
    spec.kernels = 16;
    spec.streams = 16;
    const std::string file = workload_file(random_workload(spec, 16002), "sixteen.toml");
    const test::CliRun r = test::run_cli({"wcrt", file, "--timeout", "0.05", "--json"});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 2);
    const PlanJson j = PlanJson::parse(r.out);
    for (const PlanJson& op : j["operations"]) {
        const PlanJson& m = op["rta_max_over_orders"];
        if (m.is_string()) continue;
        REQUIRE(m.is_object());
        const std::optional<Time> lo = parse_time(m["lower"].get<std::string>());
        const std::optional<Time> hi = parse_time(m["upper"].get<std::string>());
        REQUIRE(lo);
        REQUIRE(hi);
        CHECK(*lo <= *hi);
        CHECK(m["lower"] != "");
    }
}

TEST_CASE(
    "rta(max over orders) outside the RTA's exactness scope: the header says approximation, every kernel a value or an "
    "interval",
    "[plan][rta]") {
    PipelineSpec spec;
    spec.streams = 2;
    spec.iterations = 1;
    const std::string file = workload_file(pipeline_workload(spec, 3), "copies.toml");
    test::CliRun r = test::run_cli({"wcrt", file});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    // The header, whole or wrapped at its blank when the table is wider than 120 columns.
    CHECK(r.out.find("rta(max,") != std::string::npos);
    CHECK(r.out.find("approximation)") != std::string::npos);
    CHECK(r.out.find("RTA scope: approximation") != std::string::npos);
    r = test::run_cli({"wcrt", file, "--json"});
    REQUIRE(r.exit_code == 0);
    const PlanJson j = PlanJson::parse(r.out);
    CHECK(j["rta_scope"] == "approximation");
    for (const PlanJson& op : j["operations"])
        if (op["name"].get<std::string>().rfind("k", 0) == 0)  // the kernels (copies are in* and out*)
            CHECK((op["rta_max_over_orders"].is_string() || op["rta_max_over_orders"].is_object()));
}

TEST_CASE(
    "certify ends once upper bounds settle every verdict: the newcomer pipeline under block-time ranges and an "
    "issue window is certified long before its timeout",
    "[plan][certify][slow]") {
    for (const char* file : {"bench/camera/newcomer-ranged.toml", "bench/camera/newcomer-window.toml"}) {
        const test::CliRun r = test::run_cli({"certify", file, "--timeout", "120", "--json"});
        INFO(file << "\n" << r.out << r.err);
        REQUIRE(r.exit_code == 0);
        const PlanJson j = PlanJson::parse(r.out);
        REQUIRE(j["operations"].size() == 3);  // the file's deadlines: cam_out, lidar_out, viz_out
        // The interference bound, computed before any search, settles all three
        // (bench/RESULTS.md, "camera"): no search runs.
        for (const PlanJson& op : j["operations"]) {
            CHECK(op["verdict"] == "certified");
            CHECK(op["upper_by"] == "interference bound");
        }
        CHECK(j["stats"]["seconds"].get<double>() < 10);
    }
}
