// The keys of the current cuda_scheduling_examiner (parse_config.c, multikernel.cu) on configs
// written from its own (tests/data/examiner-keys/README.md): keys that leave the imported
// iteration unchanged are accepted, a key that would change the schedule is refused with why.
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
