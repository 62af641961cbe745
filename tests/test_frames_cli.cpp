// `simulate` over frames (--frames, --until, the default hyperperiod): every frame's operations
// and each operation's worst response over them, on cases/periodic/two-cameras.toml.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "support.hpp"

using FramesJson = nlohmann::ordered_json;
using namespace gpuwcrt;

namespace {

const std::string cameras = "cases/periodic/two-cameras.toml";

FramesJson frames_simulate_json(const std::vector<std::string>& extra) {
    std::vector<std::string> args{"simulate", test::source_path(cameras), "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = test::run_cli(args);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    return FramesJson::parse(r.out);
}

// Two streams that run once: B waits on A, which runs 0-5.
const std::string runs_once =
    "[[stream]]\nname = \"S\"\n[[stream]]\nname = \"T\"\n"
    "[[kernel]]\nname = \"A\"\nstream = \"S\"\nblocks = 1\nthreads = 32\nblock_time = 5\n"
    "[[kernel]]\nname = \"B\"\nstream = \"T\"\nblocks = 1\nthreads = 32\nblock_time = 1\n"
    "wait = [\"A\"]\n";

}  // namespace

TEST_CASE("simulate --frames: every frame's operations, and each operation's worst over them", "[frames][cli]") {
    const FramesJson out = frames_simulate_json({"--frames", "4"});
    CHECK(out["horizon"] == FramesJson{{"kind", "frames"}, {"frames", 4}});
    CHECK(out["options"]["frames"] == 4);
    for (const FramesJson& s : out["streams"]) CHECK(s["frames"] == 4);
    // Per unrolled operation: its origin, frame and release, and the one-frame keys.
    std::map<std::string, Time> worst;
    std::map<std::string, int> count, missed;
    REQUIRE(out["operations"].size() == 12);
    for (const FramesJson& op : out["operations"]) {
        const std::string origin = op["origin"], name = op["name"];
        CHECK(name == origin + "#" + std::to_string(op["frame"].get<int>()));
        const Time release = *parse_time(op["release"].get<std::string>());
        CHECK(release == Time(6 * op["frame"].get<int>() + (origin == "detectB" ? 1 : 0)));
        CHECK(*parse_time(op["issue"].get<std::string>()) >= release);
        const Time r = *parse_time(op["response"].get<std::string>());
        worst[origin] = count[origin]++ == 0 ? r : std::max(worst[origin], r);
        if (!op["deadline"].is_null() && r > *parse_time(op["deadline"].get<std::string>())) ++missed[origin];
    }
    // The summary agrees with the operations it summarises.
    REQUIRE(out["summary"].size() == 3);
    for (const FramesJson& s : out["summary"]) {
        const std::string name = s["name"];
        INFO(name);
        CHECK(s["frames"] == count[name]);
        CHECK(*parse_time(s["worst_response"].get<std::string>()) == worst[name]);
        bool found = false;
        for (const FramesJson& op : out["operations"])
            if (op["origin"] == name && op["frame"] == s["worst_frame"])
                found = *parse_time(op["response"].get<std::string>()) == worst[name];
        CHECK(found);
        CHECK(s["missed"] == missed[name]);
        if (!s["deadline"].is_null()) CHECK(s["deadline_met"] == (missed[name] == 0));
    }
}

TEST_CASE("simulate --until and the default horizon", "[frames][cli]") {
    // Until 12: camA releases 0, 6, 12; camB 1, 7; fusion waits on both, so all three get 3.
    const FramesJson until = frames_simulate_json({"--until", "12"});
    CHECK(until["horizon"] == FramesJson{{"kind", "until"}, {"until", "12"}});
    for (const FramesJson& s : until["streams"]) CHECK(s["frames"] == 3);
    // No option: one hyperperiod, here 6, so one frame of each stream.
    const FramesJson one = frames_simulate_json({});
    CHECK(one["horizon"] == FramesJson{{"kind", "hyperperiod"}, {"hyperperiod", "6"}});
    CHECK(one["operations"].size() == 3);
    CHECK(one["options"]["frames"].is_null());
    const auto table = test::run_cli({"simulate", test::source_path(cameras), "--frames", "2"});
    REQUIRE(table.exit_code == 0);
    CHECK(test::contains(table.out, "simulated: 2 frames of each periodic or sporadic stream"));
    CHECK(test::contains(table.out, "worst response of each operation over its frames:"));
    CHECK(test::contains(table.out, "MISSED 1/2"));
    const auto csv = test::run_cli({"simulate", test::source_path(cameras), "--frames", "2", "--csv"});
    REQUIRE(csv.exit_code == 0);
    CHECK(csv.out.rfind("operation,origin,frame,kind,stream,release,issue,", 0) == 0);
    CHECK(test::occurrences(csv.out, "\n") == 7);  // the header and 6 operations
}

TEST_CASE("simulate --order names the operations of every frame", "[frames][cli]") {
    // detectA#1 and fuse#1 are both issued at 6; file order launches detectA#1 first, the order
    // below fuse#1 first. The launch positions in the JSON follow it.
    const FramesJson fused_first = frames_simulate_json({"--frames", "2", "--order", "fuse#1,detectA#1"});
    std::vector<std::string> names;
    for (const FramesJson& op : fused_first["operations"]) names.push_back(op["name"]);
    const auto pos = [&](const std::string& n) { return std::find(names.begin(), names.end(), n) - names.begin(); };
    CHECK(pos("fuse#1") < pos("detectA#1"));
    const FramesJson file_order = frames_simulate_json({"--frames", "2"});
    names.clear();
    for (const FramesJson& op : file_order["operations"]) names.push_back(op["name"]);
    CHECK(pos("detectA#1") < pos("fuse#1"));
}

TEST_CASE("simulate's frames options: bad values are input errors naming the option", "[frames][cli]") {
    const std::string dir = test::temp_dir();
    const std::string once = test::write_file(dir, "once.toml", runs_once);
    const std::string path = test::source_path(cameras);
    const std::vector<std::pair<std::vector<std::string>, std::string>> bad{
        {{"simulate", once, "--frames", "2"}, "gpuwcrt: --frames: the workload has no periodic or sporadic stream"},
        {{"simulate", once, "--until", "2"}, "gpuwcrt: --until: the workload has no periodic or sporadic stream"},
        {{"simulate", path, "--frames", "0"}, "gpuwcrt: --frames: must be between 1 and 100000, got 0"},
        {{"simulate", path, "--frames", "100001"}, "gpuwcrt: --frames: must be between 1 and 100000"},
        {{"simulate", path, "--until", "-1"}, "gpuwcrt: --until: must be an exact time >= 0"},
        {{"simulate", path, "--until", "abc"}, "gpuwcrt: --until: must be an exact time >= 0"},
        {{"simulate", path, "--until", "0.5e9"}, "gpuwcrt: --until: 500000000 covers more than 100000 frames"},
    };
    for (const auto& [args, message] : bad) {
        INFO(args.back());
        const auto r = test::run_cli(args);
        CHECK(r.exit_code == 3);
        CHECK(r.out.empty());
        CHECK(r.err.rfind(message, 0) == 0);
    }
}

TEST_CASE("simulate --json over frames validates against its schema", "[frames][outputs]") {
    const auto r = test::run_cli({"simulate", test::source_path(cameras), "--json", "--frames", "3"});
    REQUIRE(r.exit_code == 0);
    const auto [code, messages] = test::validate_json_text("simulate", r.out);
    INFO(messages);
    if (code == 77) {
        WARN("skipped: python3-jsonschema is missing");
        return;
    }
    CHECK(code == 0);
}
