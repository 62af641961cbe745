// The commands and engines that analyse one frame refuse periodic and sporadic streams (wcrt and
// certify analyse them for all time), and every engine that cannot range over `wait` refuses it
// (docs/theory/semantics.md §9): an input error naming the feature, never an answer that ignores it.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "support.hpp"

using json = nlohmann::ordered_json;
using namespace gpuwcrt;

namespace {

// Two streams that run once: B waits on A, which runs 0-5.
const std::string wait_workload =
    "[[stream]]\nname = \"S\"\n[[stream]]\nname = \"T\"\n"
    "[[kernel]]\nname = \"A\"\nstream = \"S\"\nblocks = 1\nthreads = 32\nblock_time = 5\n"
    "[[kernel]]\nname = \"B\"\nstream = \"T\"\nblocks = 1\nthreads = 32\nblock_time = 1\n"
    "wait = [\"A\"]\n";

// A stream that runs once, then (line 4) a periodic one.
const std::string periodic_workload =
    "[[stream]]\nname = \"once\"\n\n[[stream]]\nname = \"cam\"\nperiod = 10\n"
    "[[kernel]]\nname = \"K\"\nstream = \"cam\"\nblocks = 1\nthreads = 32\n"
    "block_time = 1\ndeadline = 5\n"
    "[[kernel]]\nname = \"O\"\nstream = \"once\"\nblocks = 1\nthreads = 32\n"
    "block_time = 1\n";

}  // namespace

TEST_CASE("commands that analyse one frame refuse periodic streams", "[frames][cli]") {
    const std::string path = test::write_file(test::temp_dir(), "periodic.toml", periodic_workload);
    const std::string log = test::source_path("tests/data/thesis-tx2-traces/concurrent_1st_1.json");
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{"rta", path}, {"rta-check", path}, {"compare-trace", path, log}}) {
        INFO(args[0]);
        const auto r = test::run_cli(args);
        CHECK(r.exit_code == 3);
        CHECK(r.out.empty());
        CHECK(r.err.rfind(path + ":4:1: gpuwcrt " + args[0] + ": stream 'cam' is periodic", 0) == 0);
        CHECK(test::contains(r.err, "all-time analysis of periodic and sporadic streams is not available yet"));
        CHECK(test::contains(r.err, "gpuwcrt simulate --frames N"));
    }
}

TEST_CASE("wcrt and certify analyse periodic streams for all time, with the default engine only", "[frames][cli]") {
    const std::string dir = test::temp_dir();
    const std::string path = test::write_file(dir, "periodic.toml", periodic_workload);
    const auto wcrt = test::run_cli({"wcrt", path});
    CHECK(wcrt.exit_code == 0);  // alone on the GPU, K and O are exact
    CHECK(test::contains(wcrt.out, "all time, every frame of every operation"));
    CHECK(test::contains(wcrt.out, "proven idle at the end of 1 hyperperiod of 10"));
    const auto certify = test::run_cli({"certify", path});
    CHECK(certify.exit_code == 0);
    CHECK(test::contains(certify.out, "certified"));
    for (const char* engine : {"enumerate", "exact", "bounds", "smt"}) {
        INFO(engine);
        const auto r = test::run_cli({"wcrt", path, "--engine", engine});
        CHECK(r.exit_code == 3);
        CHECK(r.out.empty());
        CHECK(r.err.rfind(
                  path + ":4:1: gpuwcrt wcrt: stream 'cam' is periodic, and --engine " + engine + " analyses one frame",
                  0) == 0);
        CHECK(test::contains(r.err, "for all time with the default engine, auto"));
    }
    const std::string sporadic =
        test::write_file(dir, "sporadic.toml",
                         "[[stream]]\nname = \"s\"\nmin_interarrival = 10\n"
                         "[[kernel]]\nname = \"K\"\nstream = \"s\"\nblocks = 1\nthreads = 32\nblock_time = 1\n");
    // A sporadic stream alone: each busy period holds one frame, its kernel's one block time.
    const auto r = test::run_cli({"wcrt", sporadic});
    CHECK(r.exit_code == 0);
    CHECK(test::contains(r.out, "every busy period of the GPU is proven to end within"));
    CHECK(test::contains(r.out, "exact"));
}

TEST_CASE("every engine but enumerate and exact refuses wait, and those two range over it", "[frames][cli][wait]") {
    const std::string dir = test::temp_dir();
    const std::string file = test::write_file(dir, "waits.toml", wait_workload);
    for (const char* engine : {"auto", "bounds", "smt"}) {
        for (const char* command : {"wcrt", "certify"}) {
            INFO(command << " --engine " << engine);
            const auto r = test::run_cli({command, file, "--engine", engine});
            CHECK(r.exit_code == 3);
            CHECK(r.out.empty());
            CHECK(test::contains(r.err, "--engine " + std::string(engine) + " does not support `wait` yet"));
            CHECK(r.err.rfind(file + ":", 0) == 0);
        }
    }
    CHECK(test::run_cli({"rta-check", file}).exit_code == 3);
    // B is issued at 0 and starts when A completes at 5: it responds in 6 in every scenario.
    for (const char* engine : {"enumerate", "exact"}) {
        INFO("--engine " << engine);
        const auto e = test::run_cli({"wcrt", file, "--engine", engine, "--op", "B", "--json"});
        REQUIRE(e.exit_code == 0);
        const json out = json::parse(e.out);
        CHECK(out["operations"][0]["wcrt"] == "6");
        CHECK(out["operations"][0]["status"] == "exact");
    }
    const auto refuted = test::run_cli({"certify", file, "--engine", "enumerate", "--bound", "B=5"});
    CHECK(refuted.exit_code == 1);
    // A grid maximum is no proof without the busy-time bound, which waits break: never exact.
    const std::string ranged = test::write_file(
        dir, "ranged.toml",
        wait_workload.substr(0, wait_workload.find("block_time = 5")) + "block_time = [4, 5]" +
            wait_workload.substr(wait_workload.find("block_time = 5") + std::string("block_time = 5").size()));
    const auto g = test::run_cli({"wcrt", ranged, "--engine", "enumerate", "--op", "B", "--json"});
    INFO(g.err);
    CHECK(g.exit_code == 2);
    CHECK(json::parse(g.out)["operations"][0]["status"] == "unknown");
}

TEST_CASE("the RTA says it ignores wait", "[frames][cli][wait]") {
    const std::string file = test::write_file(test::temp_dir(), "waits.toml", wait_workload);
    const auto r = test::run_cli({"rta", file, "--json"});
    REQUIRE(r.exit_code == 0);
    const json out = json::parse(r.out);
    CHECK(out["scope"] != "exact");
    bool said = false;
    for (const json& reason : out["reasons"]) said = said || test::contains(reason.get<std::string>(), "`wait`");
    CHECK(said);
}
