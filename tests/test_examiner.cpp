// cuda_scheduling_examiner import (configs -> workloads) and trace comparison (logs vs
// simulation) on the real RTSS'17 configs and the thesis' Jetson TX2 logs in tests/data/.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "model/io/examiner_config.hpp"
#include "model/io/located_json.hpp"
#include "model/io/write_toml.hpp"
#include "report/trace/trace_compare.hpp"
#include "report/trace/trace_svg.hpp"
#include "sim/simulate.hpp"
#include "support.hpp"

using namespace gpuwcrt;
using test::run_cli;
using test::source_path;

namespace {

const std::string fig3_bandwidth = "1342177280";  // 256 MiB in 0.2 s, the copy time of cases/amert2017/fig3.toml

std::string trace(const std::string& file) { return source_path("tests/data/thesis-tx2-traces/" + file); }

std::vector<ExaminerLog> thesis_logs() {
    std::vector<ExaminerLog> logs;
    for (int i = 1; i <= 4; ++i)
        logs.push_back(read_examiner_log_file(trace("concurrent_1st_" + std::to_string(i) + ".json")));
    return logs;
}

Workload import_examiner_text(const std::string& json, std::optional<Time> bandwidth = std::nullopt) {
    return import_examiner_config(json, "cfg.json", {bandwidth}).workload;
}

// A config around one benchmark object (given as JSON text).
std::string config_with(const std::string& benchmarks) {
    return "{\"name\": \"t\", \"max_iterations\": 1, \"max_time\": 0, \"cuda_device\": 0,\n"
           " \"benchmarks\": [" +
           benchmarks + "]}";
}

std::string spin(const std::string& label, const std::string& extra = "") {
    return "{\"filename\": \"./bin/timer_spin.so\", \"label\": \"" + label +
           "\", \"thread_count\": 256, \"block_count\": 2, \"data_size\": 0, \"additional_info\": 500000000" + extra +
           "}";
}

}  // namespace

TEST_CASE("every examiner config imports to its reviewed golden TOML", "[examiner]") {
    int n = 0;
    for (const auto& e : std::filesystem::directory_iterator(source_path("tests/data/examiner-configs"))) {
        if (e.path().extension() != ".json") continue;
        const std::string stem = e.path().stem().string();
        INFO(stem);
        std::vector<std::string> args = {"import-examiner", e.path().string()};
        if (stem == "rtss_2017_fig3_bigexperiment") args.insert(args.end(), {"--copy-bandwidth", fig3_bandwidth});
        const auto r = run_cli(args);
        REQUIRE(r.exit_code == 0);
        CHECK(r.out == test::slurp(source_path("tests/data/examiner-golden/" + stem + ".toml")));
        CHECK_NOTHROW(load_workload_text(r.out, stem + ".toml"));
        ++n;
    }
    CHECK(n == 13);
}

TEST_CASE("the thesis config imports - in the measured launch order it completes at 6, 12, 11, 10", "[examiner]") {
    const auto r =
        run_cli({"import-examiner", trace("rta.json"), "--launch-order", "Kernel 2, Kernel 3, Kernel 4, Kernel 1"});
    REQUIRE(r.exit_code == 0);
    const Workload w = load_workload_text(r.out, "rta.toml");
    const Schedule s = simulate(w, scenario_for(w, {}, std::nullopt));
    CHECK(s.ops[*w.find_op("Kernel 2")].finish == 6);
    CHECK(s.ops[*w.find_op("Kernel 3")].finish == 12);
    CHECK(s.ops[*w.find_op("Kernel 4")].finish == 11);
    CHECK(s.ops[*w.find_op("Kernel 1")].finish == 10);
    // Without the measured order, the file order (Kernel 1 first) is the thesis' §3.5 order.
    const Workload plain = load_workload_file(source_path("tests/data/examiner-golden/rta.toml"));
    CHECK(simulate(plain, {}).ops[*plain.find_op("Kernel 1")].finish == 4);
}

TEST_CASE("compare-trace: every thesis kernel's predicted completion is within 1 ms of the log", "[examiner]") {
    const Workload w = load_workload_file(source_path("tests/data/examiner-golden/rta.toml"));
    const TraceComparison c = compare_trace(w, thesis_logs(), {});
    REQUIRE(c.kernels.size() == 4);
    std::vector<std::string> order;
    for (const KernelComparison& k : c.kernels) {
        INFO(c.workload.ops[k.op].name);
        order.push_back(c.workload.ops[k.op].name);
        const Time diff = k.predicted_finish - k.measured_finish;
        CHECK(diff <= Time(1, 1000));
        CHECK(diff >= Time(-1, 1000));
        CHECK(k.max_start_deviation <= Time(1, 1000));
    }
    CHECK(order == std::vector<std::string>{"Kernel 2", "Kernel 3", "Kernel 4", "Kernel 1"});
    // The origin is the earliest 'before launch' time, read exactly: 0.068093312 (Kernel 1).
    CHECK(c.origin == Time(68093312, 1000000000));
    // Measured block ends come straight from the log, exactly.
    CHECK(c.kernels[0].measured_finish == Time(6068822517LL, 1000000000) - c.origin);

    // The CLI agrees, and its JSON carries exact strings.
    const auto r = run_cli({"compare-trace", source_path("tests/data/examiner-golden/rta.toml"),
                            trace("concurrent_1st_1.json"), trace("concurrent_1st_2.json"),
                            trace("concurrent_1st_3.json"), trace("concurrent_1st_4.json"), "--json"});
    REQUIRE(r.exit_code == 0);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["kernels"].size() == 4);
    for (const auto& k : j["kernels"]) {
        const Time diff = *parse_time(k["finish_difference"].get<std::string>());
        CHECK((diff <= Time(1, 1000) && diff >= Time(-1, 1000)));
    }
}

TEST_CASE("compare-trace with the 'before launch' instants gets the launch order wrong", "[examiner]") {
    // Entering the launch call is not entering the stream queue: by cuda_launch_times[0] Kernel 1
    // was first, yet the GPU ran Kernel 2's blocks first. This is why 'after' is the default.
    const Workload w = load_workload_file(source_path("tests/data/examiner-golden/rta.toml"));
    TraceCompareOptions o;
    o.instant = LaunchInstant::before;
    const TraceComparison c = compare_trace(w, thesis_logs(), o);
    CHECK(c.workload.ops[c.kernels.front().op].name == "Kernel 1");
    bool some_far = false;
    for (const KernelComparison& k : c.kernels) some_far = some_far || k.predicted_finish - k.measured_finish > 1;
    CHECK(some_far);
}

TEST_CASE("compare-trace --svg stacks the measured and predicted charts", "[examiner]") {
    const std::string dir = test::temp_dir();
    const auto r = run_cli({"compare-trace", source_path("tests/data/examiner-golden/rta.toml"),
                            trace("concurrent_1st_1.json"), trace("concurrent_1st_2.json"),
                            trace("concurrent_1st_3.json"), trace("concurrent_1st_4.json"), "--svg", dir + "/t.svg"});
    REQUIRE(r.exit_code == 0);
    const std::string svg = test::slurp(dir + "/t.svg");
    CHECK(svg.find("Measured") < svg.find("Predicted"));
    std::size_t nested = 0;
    for (std::size_t at = svg.find("<svg"); at != std::string::npos; at = svg.find("<svg", at + 1)) ++nested;
    CHECK(nested == 3);
    std::filesystem::remove_all(dir);
}

TEST_CASE("stack_svgs places each chart below the previous one", "[examiner]") {
    const std::string s =
        stack_svgs({{"a", "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"50\"><g/></svg>"},
                    {"b", "<?xml version=\"1.0\"?>\n<svg width=\"80\" height=\"30\"/>"}});
    CHECK(s.find("width=\"100\" height=\"136\"") != std::string::npos);  // 28 + 50 + 28 + 30
    CHECK(s.find("<svg x=\"0\" y=\"28\"") != std::string::npos);
    CHECK(s.find("<svg x=\"0\" y=\"106\"") != std::string::npos);
    CHECK(s.find("<?xml") == std::string::npos);
}

TEST_CASE("input errors through the CLI: exit 3 and file:line:column", "[examiner]") {
    const std::string dir = test::temp_dir();
    auto write = [&](const std::string& name, const std::string& text) {
        std::ofstream(dir + "/" + name) << text;
        return dir + "/" + name;
    };
    SECTION("unsupported plugin, named") {
        const std::string f = write(
            "m.json",
            config_with(
                "{\"filename\": \"./bin/mandelbrot.so\", \"thread_count\": 32, \"block_count\": 1, \"data_size\": 0}"));
        const auto r = run_cli({"import-examiner", f});
        CHECK(r.exit_code == 3);
        CHECK(r.err.find(f + ":2:30: unsupported benchmark plugin 'mandelbrot.so'") != std::string::npos);
    }
    SECTION("copies without --copy-bandwidth, at the first copy") {
        const auto r =
            run_cli({"import-examiner", source_path("tests/data/examiner-configs/rtss_2017_fig3_bigexperiment.json")});
        CHECK(r.exit_code == 3);
        CHECK(r.err.find("rtss_2017_fig3_bigexperiment.json:27:29: copy 'K2 copy out'") != std::string::npos);
        CHECK(r.err.find("--copy-bandwidth") != std::string::npos);
    }
    SECTION("malformed JSON: the exact line and column") {
        const std::string f = write("bad.json", "{\n  \"name\": \"x\",\n  \"benchmarks\": [1, 2,]\n}\n");
        const auto r = run_cli({"import-examiner", f});
        CHECK(r.exit_code == 3);
        CHECK(r.err.find(f + ":3:23: JSON syntax error: expected a value but found ']'") != std::string::npos);
    }
    SECTION("an unknown benchmark key, at the key") {
        const std::string f = write("k.json", config_with(spin("A", ", \"gpu_mask\": 3")));
        const auto r = run_cli({"import-examiner", f});
        CHECK(r.exit_code == 3);
        CHECK(r.err.find(":2:152: unknown key 'gpu_mask'") != std::string::npos);
    }
    SECTION("a missing required key, at the object") {
        const std::string f = write(
            "k.json", config_with("{\"filename\": \"./bin/timer_spin.so\", \"thread_count\": 1, \"data_size\": 0}"));
        const auto r = run_cli({"import-examiner", f});
        CHECK(r.exit_code == 3);
        CHECK(r.err.find(":2:17: a benchmark lacks the required key 'block_count'") != std::string::npos);
    }
    SECTION("compare-trace with a log whose label matches nothing") {
        const std::string log = write("l.json", test::slurp(trace("concurrent_1st_1.json")));
        const auto r = run_cli({"compare-trace", source_path("cases/thesis/example.toml"), log});
        CHECK(r.exit_code == 3);
        CHECK(r.err.find(log + ":1:1: log label 'Kernel 1' matches no kernel") != std::string::npos);
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("import mapping: streams, priorities, NULL stream, releases", "[examiner]") {
    const Workload w = import_examiner_text(
        config_with(spin("hi", ", \"stream_priority\": -1, \"release_time\": 0.25") + "," +
                    spin("lo", ", \"stream_priority\": 0") + "," + spin("none") + "," +
                    "{\"filename\": \"./bin/timer_spin_default_stream.so\", \"label\": \"n2\", \"thread_count\": 64, "
                    "\"block_count\": 1, \"data_size\": 0, \"additional_info\": 3, \"release_time\": 0.9}," +
                    "{\"filename\": \"./bin/timer_spin_default_stream.so\", \"label\": \"n1\", \"thread_count\": 64, "
                    "\"block_count\": 1, \"data_size\": 0, \"additional_info\": 3, \"release_time\": 0.1}"));
    REQUIRE(w.ops.size() == 5);
    CHECK(w.streams[w.ops[0].stream].priority == Priority::high);
    CHECK(w.ops[0].issue.at.lo == Time(1, 4));
    CHECK(w.ops[0].time.lo == Time(1, 2));
    CHECK(w.streams[w.ops[1].stream].priority == Priority::low);
    CHECK(w.streams[w.ops[2].stream].priority == Priority::low);
    // Both NULL-stream benchmarks share the one NULL stream, in release order.
    CHECK(w.ops[3].stream == w.ops[4].stream);
    CHECK(w.streams[w.ops[3].stream].is_null);
    CHECK(w.ops[3].name == "n1");
    CHECK(w.ops[4].name == "n2");
    CHECK(w.ops[3].time.lo == Time(3, 1000000000));  // 3 ns, exactly
}

TEST_CASE("import mapping: multikernel delays, copies and shared memory", "[examiner]") {
    const std::string mk =
        "{\"filename\": \"./bin/multikernel.so\", \"label\": \"S\", \"thread_count\": 0, \"block_count\": 0, "
        "\"data_size\": 0, \"release_time\": 0.5, \"additional_info\": ["
        "{\"kernel_label\": \"A\", \"duration\": 1000000000, \"block_count\": 1, \"thread_count\": 128, \"delay\": "
        "0.25,"
        " \"copy_in_count\": 1000},"
        "{\"kernel_label\": \"B\", \"duration\": 2000000000, \"block_count\": 3, \"thread_count\": 64, \"delay\": 0.5,"
        " \"shared_memory_size\": 10240, \"copy_out_count\": 250},"
        "{\"kernel_label\": \"C\", \"duration\": 1, \"block_count\": 1, \"thread_count\": 32}]}";
    const Workload w = import_examiner_text(config_with(mk), Time(1000));
    REQUIRE(w.ops.size() == 5);
    const Operation &cin = w.ops[0], &a = w.ops[1], &b = w.ops[2], &cout = w.ops[3], &c = w.ops[4];
    CHECK(cin.name == "A copy in");
    CHECK(cin.time.lo == 4);               // 4000 bytes / 1000 B/s
    CHECK(cin.issue.at.lo == Time(3, 4));  // release 0.5 + delay 0.25, the stream being idle
    CHECK(a.issue.kind == IssueSpec::Kind::with_previous);
    CHECK(b.issue.kind == IssueSpec::Kind::after_stream_idle);
    CHECK(b.issue.delay == Time(1, 2));
    CHECK(b.shared_mem == 40960);  // 10240 32-bit integers
    CHECK(cout.name == "B copy out");
    CHECK(cout.time.lo == 1);
    CHECK(cout.issue.kind == IssueSpec::Kind::with_previous);
    CHECK(c.issue.kind == IssueSpec::Kind::with_previous);  // no delay: no synchronisation
    CHECK(c.time.lo == Time(1, 1000000000));
    // The written form reads back the same.
    const Workload back = load_workload_text(workload_to_toml(w), "w.toml");
    CHECK(back.ops[2].issue.kind == IssueSpec::Kind::after_stream_idle);
    CHECK(back.ops[0].issue.at.lo == Time(3, 4));
}

TEST_CASE("import mapping: sharedmem_timer_spin in its object and older string forms", "[examiner]") {
    auto with_info = [](const std::string& info) {
        return config_with(
            "{\"filename\": \"./bin/sharedmem_timer_spin.so\", \"label\": \"s\", \"thread_count\": 256,"
            " \"block_count\": 4, \"data_size\": 0, \"additional_info\": " +
            info + "}");
    };
    const Workload a = import_examiner_text(with_info("{\"duration\": 250000000, \"shared_memory_size\": 8192}"));
    CHECK(a.ops[0].shared_mem == 32768);
    CHECK(a.ops[0].time.lo == Time(1, 4));
    const Workload b = import_examiner_text(with_info("\"250000000,4096\""));
    CHECK(b.ops[0].shared_mem == 16384);
    CHECK_THROWS_WITH(import_examiner_text(with_info("{\"duration\": 1, \"shared_memory_size\": 100}")),
                      Catch::Contains("4096, 8192 or 10240"));
}

TEST_CASE("configs outside the model are refused, not approximated", "[examiner]") {
    CHECK_THROWS_WITH(import_examiner_text(config_with(spin("x", ", \"max_iterations\": 3"))),
                      Catch::Contains("only single-iteration"));
    CHECK_THROWS_WITH(
        import_examiner_text("{\"name\": \"t\", \"max_iterations\": 1, \"max_time\": 0, \"use_processes\": true,"
                             " \"benchmarks\": [" +
                             spin("x") + "]}"),
        Catch::Contains("own process"));
    CHECK_THROWS_WITH(import_examiner_text(config_with(spin("x", ", \"release_time\": -1"))), Catch::Contains(">= 0"));
    // Two benchmarks with one label keep it visible and stay unique.
    const Workload w = import_examiner_text(config_with(spin("x") + "," + spin("x")));
    CHECK(w.ops[0].name == "x");
    CHECK(w.ops[1].name == "x #2");
}

TEST_CASE("located JSON: positions, exact numbers, escapes, duplicates", "[examiner]") {
    const JsonValue v = parse_located_json("{\"a\": [1, 0.068093376, -2.5e-3],\n \"\\u00e9\\n\": \"x\\ty\"}", "j");
    CHECK(v.members[1].key == "\xc3\xa9\n");
    CHECK(v.members[1].key_where.line == 2);
    CHECK(v.members[1].key_where.column == 2);
    CHECK(v.get("a")->items[1].where.column == 11);
    CHECK(json_number(v.get("a")->items[1], "n") == Time(68093376, 1000000000));
    CHECK(json_number(v.get("a")->items[2], "n") == Time(-1, 400));
    CHECK(json_integer(parse_located_json("1e9", "j"), "n") == 1000000000);
    CHECK_THROWS_WITH(parse_located_json("{\"a\": 1, \"a\": 2}", "j"),
                      Catch::Contains("j:1:10: key 'a' appears twice"));
    CHECK_THROWS_WITH(parse_located_json("[01]", "j"), Catch::Contains("j:1:3:"));
    CHECK_THROWS_WITH(parse_located_json("\"abc", "j"), Catch::Contains("unterminated"));
    CHECK_THROWS_WITH(parse_located_json("{} x", "j"), Catch::Contains("j:1:4:"));
}
