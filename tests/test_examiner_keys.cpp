// The keys of the current cuda_scheduling_examiner (parse_config.c, multikernel.cu) on configs
// written from its own (tests/data/examiner-keys/README.md): keys that leave the imported
// iteration unchanged are accepted, a key that would change the schedule is refused with why.
#include <algorithm>
#include <catch2/catch.hpp>

#include "model/io/examiner_config.hpp"
#include "support.hpp"

using namespace gpuwcrt;
using test::run_cli;
using test::source_path;

namespace {

std::string examiner_keys_file(const std::string& stem) {
    return source_path("tests/data/examiner-keys/" + stem + ".json");
}

ExaminerImport examiner_keys_import(const std::string& stem) {
    return import_examiner_file(examiner_keys_file(stem), {});
}

}  // namespace

TEST_CASE("examiner keys: do_warmup and sync_every_iteration leave the one iteration as it is", "[examiner]") {
    const ExaminerImport im = examiner_keys_import("warmup_and_sync");
    REQUIRE(im.workload.ops.size() == 2);
    CHECK(im.workload.ops[0].name == "K1");
    CHECK(im.workload.ops[0].blocks == 2);
    CHECK(im.workload.ops[1].issue.at.lo == Time(1, 10));
    CHECK(im.workload.ops[1].time.lo == Time(1, 4));  // 250000000 ns
    const auto r = run_cli({"import-examiner", examiner_keys_file("warmup_and_sync")});
    CHECK(r.exit_code == 0);
}

TEST_CASE("examiner keys: a non-boolean do_warmup is refused at its value, as the examiner does", "[examiner]") {
    const auto r = run_cli({"import-examiner", "-"},
                           "{\"name\": \"t\", \"max_iterations\": 1, \"max_time\": 0, \"cuda_device\": 0,\n"
                           " \"do_warmup\": 1, \"benchmarks\": []}");
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("<stdin>:2:15: 'do_warmup' must be true or false") != std::string::npos);
}

TEST_CASE("examiner keys: a repeated comment is read as the examiner reads it (accepted)", "[examiner]") {
    const ExaminerImport im = examiner_keys_import("repeated_comment");
    REQUIRE(im.workload.ops.size() == 1);
    CHECK(im.workload.ops[0].name == "K1");
    CHECK(im.scenario_name == "Repeated comment");
}

TEST_CASE("examiner keys: a repeated key that matters is refused, naming both places", "[examiner]") {
    const auto r = run_cli({"import-examiner", examiner_keys_file("repeated_block_count")});
    CHECK(r.exit_code == 3);
    CHECK(r.out.empty());
    CHECK(r.err.find("repeated_block_count.json:12:7: key 'block_count' appears twice in this object (first at ") !=
          std::string::npos);
    CHECK(r.err.find("repeated_block_count.json:11:7)") != std::string::npos);
    CHECK(r.err.find("the examiner would read only the first") != std::string::npos);
}

TEST_CASE("examiner keys: mps_thread_percentage does not apply to benchmarks run as threads", "[examiner]") {
    const ExaminerImport im = examiner_keys_import("mps_percentage");
    REQUIRE(im.workload.ops.size() == 2);
    CHECK(im.workload.ops[0].blocks == 4);
    CHECK(im.workload.ops[1].blocks == 4);
    REQUIRE(!im.notes.empty());
    CHECK(im.notes[0].find("mps_thread_percentage") != std::string::npos);
    // Out of the examiner's range (0, 100]: refused as the examiner refuses it.
    const auto r = run_cli({"import-examiner", "-"},
                           "{\"name\": \"t\", \"max_iterations\": 1, \"max_time\": 0, \"cuda_device\": 0,\n"
                           " \"benchmarks\": [{\"filename\": \"timer_spin.so\", \"mps_thread_percentage\": 0,"
                           " \"thread_count\": 1, \"block_count\": 1, \"data_size\": 0, \"additional_info\": 1}]}");
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("<stdin>:2:72: 'mps_thread_percentage' must be in (0, 100], got 0") != std::string::npos);
}

TEST_CASE("examiner keys: an sm_mask that disables TPCs is refused with the key and the reason", "[examiner]") {
    const auto r = run_cli({"import-examiner", examiner_keys_file("sm_mask_partition")});
    CHECK(r.exit_code == 3);
    CHECK(r.out.empty());
    CHECK(r.err.find("sm_mask_partition.json:14:18: 'sm_mask' '0x5555555555555550' keeps the kernel off some SMs") !=
          std::string::npos);
}

TEST_CASE("examiner keys: a multikernel.so entry's inverted sm_mask is refused too", "[examiner]") {
    // "~0x5" enables TPCs 0 and 2 only, so it disables the rest.
    const auto r = run_cli({"import-examiner", examiner_keys_file("sm_mask_multikernel")});
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("sm_mask_multikernel.json:19:22: 'sm_mask' '~0x5' keeps the kernel off some SMs") !=
          std::string::npos);
}

TEST_CASE("examiner keys: an sm_mask that disables nothing is accepted", "[examiner]") {
    // "0x0" disables no TPC; "~0xffffffffffffffff" enables all 64.
    const ExaminerImport im = examiner_keys_import("sm_mask_all_enabled");
    REQUIRE(im.workload.ops.size() == 2);
    CHECK(im.workload.ops[1].name == "K2");
}

TEST_CASE("examiner keys: an sm_mask that is not a 64-bit hexadecimal mask is refused", "[examiner]") {
    for (const char* mask : {"0xg", "", "~", "0x10000000000000000", "12 "}) {
        INFO(mask);
        const std::string config =
            std::string(
                "{\"name\": \"t\", \"max_iterations\": 1, \"max_time\": 0, \"cuda_device\": 0,\n"
                " \"benchmarks\": [{\"filename\": \"timer_spin.so\", \"sm_mask\": \"") +
            mask + "\", \"thread_count\": 1, \"block_count\": 1, \"data_size\": 0, \"additional_info\": 1}]}";
        CHECK_THROWS_WITH(import_examiner_config(config, "c.json", {}),
                          Catch::Contains("c.json:2:58: 'sm_mask'") && Catch::Contains("not a hexadecimal mask"));
    }
}

TEST_CASE("examiner keys: sync_every_iteration with a benchmark's own max_iterations is refused", "[examiner]") {
    // parse_config.c: "sync_every_iteration must be false if benchmark-specific iteration
    // counts are used".
    const std::string config =
        "{\"name\": \"t\", \"max_iterations\": 1, \"max_time\": 0, \"cuda_device\": 0, \"sync_every_iteration\": "
        "true,\n"
        " \"benchmarks\": [{\"filename\": \"timer_spin.so\", \"max_iterations\": 1, \"thread_count\": 1,"
        " \"block_count\": 1, \"data_size\": 0, \"additional_info\": 1}]}";
    CHECK_THROWS_WITH(import_examiner_config(config, "c.json", {}),
                      Catch::Contains("c.json:2:47: a benchmark's own 'max_iterations' needs sync_every_iteration"));
}

namespace {

std::string dims_config(const std::string& blocks, const std::string& threads) {
    return "{\"name\": \"t\", \"max_iterations\": 1, \"max_time\": 0, \"benchmarks\": [{\"filename\": "
           "\"./bin/timer_spin.so\", \"label\": \"k\", \"thread_count\": " +
           threads + ", \"block_count\": " + blocks + ", \"data_size\": 0, \"additional_info\": 1000}]}";
}

std::string slurp_rtas2018(const std::string& stem) {
    return test::slurp(source_path("tests/data/examiner-rtas2018/" + stem + ".json"));
}

// The figure as one iteration of each benchmark: the import reads exactly one.
std::string single_iteration(std::string text) {
    for (const char* many : {"\"max_iterations\": 10", "\"max_iterations\": 3", "\"max_iterations\": 2"})
        for (auto at = text.find(many); at != std::string::npos; at = text.find(many))
            text.replace(at, std::string(many).size(), "\"max_iterations\": 1");
    return text;
}

}  // namespace

TEST_CASE("examiner keys: block_count and thread_count as arrays of 1 to 3 are their product", "[examiner]") {
    struct Dims {
        std::string blocks, threads;
        std::int64_t grid, block;
        bool noted;
    };
    for (const Dims& d : std::vector<Dims>{{"[5]", "[256]", 5, 256, false},
                                           {"[6, 1, 1]", "[128, 1]", 6, 128, true},
                                           {"[1, 1, 1]", "64", 1, 64, false},
                                           {"7", "[512, 1, 1]", 7, 512, true}}) {
        INFO(d.blocks << " " << d.threads);
        const ExaminerImport im = import_examiner_config(dims_config(d.blocks, d.threads), "cfg.json", {});
        REQUIRE(im.workload.ops.size() == 1);
        CHECK(im.workload.ops[0].blocks == d.grid);
        CHECK(im.workload.ops[0].threads == d.block);
        const bool noted = std::any_of(im.notes.begin(), im.notes.end(), [](const std::string& n) {
            return n.find("ParseDim3OrInt") != std::string::npos;
        });
        CHECK(noted == d.noted);
    }
    // timer_spin launches one-dimensional grids (GetSingleBlockAndGridDimensions); the examiner
    // takes at most 3 entries, each positive.
    const std::vector<std::pair<std::string, std::string>> refused = {
        {dims_config("[2, 2]", "256"), "entries after the first must be 1"},
        {dims_config("2", "[32, 1, 2]"), "entries after the first must be 1"},
        {dims_config("[1, 1, 1, 1]", "256"), "an array of 1 to 3"},
        {dims_config("[]", "256"), "an array of 1 to 3"},
        {dims_config("[0]", "256"), "must be > 0"},
        {dims_config("[\"2\"]", "256"), "'block_count' entry"},
    };
    for (const auto& [text, message] : refused) {
        INFO(text);
        CHECK_THROWS_WITH(import_examiner_config(text, "cfg.json", {}), Catch::Contains(message));
    }
}

TEST_CASE("examiner keys: stream_action.so of timed kernels is imported (RTAS 2018 figures 4, 10, 12)", "[examiner]") {
    // Figure 4: Task 3 released at 0.4 s sleeps 0.2 s, then launches K3 (250 ms, the benchmark's
    // 2 blocks of 512 threads) into its own stream.
    const Workload fig4 =
        import_examiner_file(source_path("tests/data/examiner-configs/rtas_2018_figure_4.json"), {}).workload;
    const Operation& k3 = fig4.ops[static_cast<std::size_t>(*fig4.find_op("K3"))];
    CHECK(k3.issue.at.lo == Time(3, 5));
    CHECK(k3.issue.at.hi == Time(3, 5));
    CHECK(k3.time.hi == Time(1, 4));
    CHECK(k3.blocks == 2);
    CHECK(k3.threads == 512);
    CHECK_FALSE(fig4.streams[static_cast<std::size_t>(k3.stream)].is_null);

    // Figures 10 and 12 run several iterations: refused for that, not for their actions.
    for (const std::string stem : {"rtas_2018_figure_10", "rtas_2018_figure_12"}) {
        INFO(stem);
        CHECK_THROWS_WITH(import_examiner_config(slurp_rtas2018(stem), stem + ".json", {}),
                          Catch::Contains("only single-iteration"));
        const Workload w = import_examiner_config(single_iteration(slurp_rtas2018(stem)), stem, {}).workload;
        REQUIRE(w.ops.size() == 2);
        CHECK(w.ops[0].blocks == 3);
        CHECK(w.ops[1].blocks == 1);
        CHECK(w.ops[1].time.hi == Time(1, 2));
        // Figure 12's second task launches into the NULL stream (use_null_stream).
        CHECK(w.streams[static_cast<std::size_t>(w.ops[1].stream)].is_null == (stem == "rtas_2018_figure_12"));
    }
}

TEST_CASE("examiner keys: stream_action.so actions that are no timed kernel are refused at the action", "[examiner]") {
    auto config = [](const std::string& action) {
        return "{\"name\": \"t\", \"max_iterations\": 1, \"max_time\": 0, \"benchmarks\": [{\"filename\": "
               "\"./bin/stream_action.so\", \"thread_count\": 256, \"block_count\": 2, \"data_size\": 0, "
               "\"additional_info\": {\"actions\": [" +
               action + "]}}]}";
    };
    const std::vector<std::pair<std::string, std::string>> refused = {
        {"{\"type\": \"memset\", \"label\": \"m\", \"parameters\": {\"size\": 4}}", "not a fixed set of timed kernels"},
        {"{\"type\": \"synchronize\", \"label\": \"s\"}", "not a fixed set of timed kernels"},
        {"{\"type\": \"kernel\", \"label\": \"k\", \"parameters\": {\"type\": \"counter_spin\", \"duration\": 9}}",
         "only timer_spin kernels"},
        {"{\"type\": \"kernel\", \"label\": \"k\", \"parameters\": {\"duration\": 9, \"block_count\": [2]}}",
         "are numbers"},
        {"{\"type\": \"kernel\", \"label\": \"k\", \"parameters\": {\"duration\": 9, \"blocks\": 2}}", "blocks"},
    };
    for (const auto& [action, message] : refused) {
        INFO(action);
        CHECK_THROWS_WITH(import_examiner_config(config(action), "cfg.json", {}), Catch::Contains(message));
        CHECK_THROWS_WITH(import_examiner_config(config(action), "cfg.json", {}), Catch::Contains("cfg.json:1:"));
    }
    // Two kernels, the second 0.001 s after the first launch: launched at 0 and 1/1000.
    const Workload w =
        import_examiner_config(config("{\"type\": \"kernel\", \"label\": \"a\", \"parameters\": {\"duration\": 1000}},"
                                      "{\"type\": \"kernel\", \"label\": \"b\", \"delay\": 0.001, \"parameters\": "
                                      "{\"duration\": 1000, \"block_count\": 4, \"thread_count\": 64}}"),
                               "cfg.json", {})
            .workload;
    REQUIRE(w.ops.size() == 2);
    CHECK(w.ops[1].issue.at.hi == Time(1, 1000));
    CHECK(w.ops[1].blocks == 4);
    CHECK(w.ops[1].threads == 64);
    CHECK(w.ops[0].stream == w.ops[1].stream);
}
