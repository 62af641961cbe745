// Lower bounds over the phasings of sporadic streams (solver/frames/phased_lower_bounds.hpp):
// a hand-derived worst phase found, its witness replayed by `simulate`, and scenarios whose
// sporadic releases come closer than the min_interarrival refused as lower bounds.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "sim/frames/frame_consistency.hpp"
#include "solver/frames/phased_lower_bounds.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

// A high-priority camera A every 20: a1 (one block of 1024 threads, 1) at its release, a2
// (four blocks of 1024 threads, 3: the whole GPU of 2 SMs × 2048 threads) issued 2 later. A
// sporadic stream B (frames at least 20 apart): b, one block of 1024 threads for 1.5.
// By hand: released with A (phase 0), b runs beside a1 and responds 1.5. Released at 2 (phase
// 2), b joins the low queue as a2 joins the high one: a2 takes the whole GPU until 5, then b
// runs 5–6.5: 4.5. Released later than 2 it waits less (a2 ends at 5); earlier, it starts at
// once (a1 leaves room) and holds an SM while a2 waits. So b's worst is 4.5, at phase 2, which
// the densest releases (phase 0) never show.
const std::string phased_toml = R"(
[[stream]]
name = "A"
period = 20
priority = "high"
[[stream]]
name = "B"
min_interarrival = 20
[[kernel]]
name = "a1"
stream = "A"
blocks = 1
threads = 1024
block_time = 1
[[kernel]]
name = "a2"
stream = "A"
blocks = 4
threads = 1024
block_time = 3
issue = 2
[[kernel]]
name = "b"
stream = "B"
blocks = 1
threads = 1024
block_time = 1.5
)";

}  // namespace

TEST_CASE("a sporadic stream's worst phase: b's lower bound is the hand-derived 4.5, replayed by simulate",
          "[frames][phasing][cli]") {
    const std::string dir = test::temp_dir(), witness = dir + "/witness.toml";
    const std::string input = test::write_file(dir, "phased.toml", phased_toml);
    const auto run = test::run_cli({"wcrt", input, "--json", "--witness", witness, "--op", "b"});
    REQUIRE(run.exit_code == 2);  // the bounds do not meet on every operation
    const nlohmann::json out = nlohmann::json::parse(run.out);
    const nlohmann::json& b = out["operations"][0];
    REQUIRE(b["name"] == "b");
    CHECK(b["wcrt"] == "9/2");
    CHECK(b["upper_bound"].is_string());
    const std::string name = "b#" + std::to_string(b["frame"].get<int>());
    const auto sim = test::run_cli({"simulate", witness, "--json"});
    REQUIRE(sim.exit_code == 0);
    bool found = false;
    const nlohmann::json replayed = nlohmann::json::parse(sim.out);
    for (const auto& op : replayed["operations"])
        if (op["name"] == name) {
            found = true;
            CHECK(op["response"] == "9/2");
        }
    CHECK(found);
}

TEST_CASE("frames_consistent: sporadic frames closer than the min_interarrival are no scenario of the system",
          "[frames][phasing]") {
    const Workload w = test::workload_from(phased_toml);
    Workload dense = w;
    for (Stream& s : dense.streams)
        if (s.arrival.kind == Arrival::Kind::sporadic) s.arrival.kind = Arrival::Kind::periodic;
    const Unrolled u = lower_bound_frames(w, dense, 2);  // B's frames released in [20k, 20k + 20]
    int b0 = -1, b1 = -1;
    for (std::size_t i = 0; i < u.workload.ops.size(); ++i) {
        if (u.workload.ops[i].name == "b#0") b0 = static_cast<int>(i);
        if (u.workload.ops[i].name == "b#1") b1 = static_cast<int>(i);
    }
    REQUIRE(b0 >= 0);
    REQUIRE(b1 >= 0);
    CHECK(u.workload.ops[static_cast<std::size_t>(b0)].issue.at.hi == Time(20));
    const auto releases = [&](const Time& first, const Time& second) {
        WitnessScenario x;
        x.issue.resize(u.workload.ops.size());
        x.issue[static_cast<std::size_t>(b0)] = first;
        x.issue[static_cast<std::size_t>(b1)] = second;
        return frames_consistent(w, u, x);
    };
    CHECK(releases(2, 22));         // 20 apart
    CHECK(releases(0, 35));         // further apart
    CHECK_FALSE(releases(10, 25));  // 15 apart: no sporadic stream of min_interarrival 20 does this
    CHECK_FALSE(releases(19, 20));
    // Made periodic (as the densest unrolling is), the same instants are judged by its windows alone.
    CHECK(frames_consistent(dense, u, WitnessScenario{}));
}
