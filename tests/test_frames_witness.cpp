// Witness files over frames (sim/frames/frames_witness.hpp; wcrt --witness and certify
// --counterexample on periodic streams): the unrolled frames with the witness's choices fixed,
// written as TOML, read back and simulated as `gpuwcrt simulate` does, give the witnessed frame
// the response the all-time analysis reported. Without what the file fixes (the issue instants
// that place the releases in their jitter windows, the after_stream_idle delays that carry a
// frame's release) some witnesses are not reproduced, so the comparison would catch a writer
// that dropped them.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <random>

#include "model/frames/validate_frames.hpp"
#include "model/generate/random_workload.hpp"
#include "model/io/write_toml.hpp"
#include "model/validate.hpp"
#include "sim/frames/frames_witness.hpp"
#include "sim/simulate.hpp"
#include "solver/frames/all_time.hpp"
#include "support.hpp"

using namespace gpuwcrt;
using WitnessJson = nlohmann::ordered_json;

namespace {

// A seeded workload of the differential tests' small family (test::ranges_spec: ranged block
// times, copies, priorities, after_stream_idle, 1–3 SMs) on 2–3 streams made periodic (periods
// 6, 8 or 12, so that frames carry over), jitter 1/2 or 1 on every stream (so that the releases
// are choices a witness makes), offsets below the period, and on half the streams an
// after_stream_idle opening the frame (issued from its release).
Workload witness_periodic_workload(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto pick = [&](std::uint64_t n) { return static_cast<int>(rng() % n); };
    RandomWorkloadSpec spec = test::ranges_spec(seed);
    spec.streams = std::max(spec.streams, 2);
    spec.kernels = std::max(spec.kernels, spec.streams);
    spec.null_stream = false;  // a stream of frames is never the NULL stream here
    spec.window_percent = 0;   // the release windows are the issue windows that matter
    Workload w = random_workload(spec, seed);
    const Time periods[] = {6, 8, 12}, jitters[] = {Time(1, 2), 1};
    for (Stream& s : w.streams) {
        s.arrival.kind = Arrival::Kind::periodic;
        s.arrival.period = periods[pick(3)];
        s.arrival.jitter = jitters[pick(2)];
        s.arrival.offset = pick(2);
    }
    // Half the streams open their frame with after_stream_idle: the host waits from the release
    // for the previous frame to drain, the case a file that runs once cannot state directly.
    for (std::size_t s = 0; s < w.streams.size(); ++s) {
        const std::vector<int> ops = w.stream_ops(static_cast<int>(s));
        if (ops.empty() || pick(2) == 0) continue;
        IssueSpec& first = w.ops[ops.front()].issue;
        first = IssueSpec{};
        first.kind = IssueSpec::Kind::after_stream_idle;
        first.delay = Time(pick(2), 2);
    }
    validate_workload(w);
    validate_frames(w);
    return w;
}

// Each operation's issue and finish when `toml` is read and simulated as `gpuwcrt simulate FILE`
// does (the file lists the operations in the unrolled order); empty when the file is refused (a
// mutated scenario may break its own launch order).
std::vector<std::pair<Time, Time>> simulated_times(const std::string& toml) {
    std::vector<std::pair<Time, Time>> out;
    try {
        const Workload w = test::workload_from(toml);
        const Schedule s = simulate(w, scenario_for(w, {}, std::nullopt));
        for (const OpTiming& t : s.ops) out.push_back({t.issue, t.finish});
    } catch (const InputError&) {
        out.clear();
    }
    return out;
}

// A camera every 10 (jitter 1) and a lidar every 20 (jitter 2), two blocks of a full SM each:
// small enough that the all-time analysis takes well under a second.
const std::string camera_and_lidar =
    "title = \"a camera and a lidar\"\n"
    "[[stream]]\nname = \"cam\"\nperiod = 10\njitter = 1\n"
    "[[stream]]\nname = \"lidar\"\nperiod = 20\njitter = 2\n"
    "[[kernel]]\nname = \"detect\"\nstream = \"cam\"\nblocks = 2\nthreads = 1024\nblock_time = [2, 3]\n"
    "deadline = 10\n"
    "[[kernel]]\nname = \"voxel\"\nstream = \"lidar\"\nblocks = 2\nthreads = 1024\nblock_time = 4\n"
    "deadline = 20\n";

std::optional<int> unrolled_index(const AllTimeResult& r, int op) {
    for (std::size_t i = 0; i < r.unrolled->origin.size(); ++i)
        if (r.unrolled->origin[i].op == op && r.unrolled->origin[i].frame == *r.answers[op].frame)
            return static_cast<int>(i);
    return std::nullopt;
}

WitnessJson witness_cli_json(const std::vector<std::string>& args, int expected_exit) {
    const auto r = test::run_cli(args);
    INFO(r.err);
    if (expected_exit < 0) REQUIRE((r.exit_code == 0 || r.exit_code == 2));  // wcrt: exact or not
    else REQUIRE(r.exit_code == expected_exit);
    return WitnessJson::parse(r.out);
}

}  // namespace

TEST_CASE("a witness over frames, written and simulated, reproduces the witnessed frame's response",
          "[frames][witness]") {
    int checked = 0, release_matters = 0, idle_matters = 0;
    for (std::uint64_t seed = 1; seed <= 16; ++seed) {
        INFO("seed " << seed);
        const Workload w = witness_periodic_workload(seed);
        AllTimeOptions o;
        o.lower_bound_simulations = 40;
        o.search_cap = std::chrono::milliseconds(0);
        const AllTimeResult r = all_time_bounds(w, Budget(), o);
        if (r.overload || !r.unrolled) continue;
        for (std::size_t op = 0; op < w.ops.size(); ++op) {
            const WcrtAnswer& a = r.answers[op];
            if (!a.witness || !a.lower || !r.answers[op].frame) continue;
            const std::optional<int> i = unrolled_index(r, static_cast<int>(op));
            REQUIRE(i);
            INFO(r.unrolled->workload.ops[*i].name << " responds in " << human_string(*a.lower));
            // The reference: the witness replayed on the unrolled frames, as the analysis did.
            const Schedule replayed =
                simulate(r.unrolled->workload, witness_scenario(r.unrolled->workload, *a.witness));
            REQUIRE(replayed.response(*i) == *a.lower);
            std::vector<std::pair<Time, Time>> expected;
            for (const OpTiming& t : replayed.ops) expected.push_back({t.issue, t.finish});
            const Workload file = frames_witness_workload(*r.unrolled, *a.witness);
            const std::vector<std::pair<Time, Time>> times = simulated_times(workload_to_toml(file));
            CHECK(times == expected);  // the witnessed frame's issue and completion among them
            ++checked;
            // Mutations: every issue at its window's start (the witnessed releases dropped), and
            // each frame's after_stream_idle waiting only its own delay after the predecessor.
            Workload no_release = file;
            no_release.scenario->issue.clear();
            release_matters += simulated_times(workload_to_toml(no_release)) != expected;
            Workload own_delay = file;
            for (std::size_t k = 0; k < own_delay.ops.size(); ++k)
                if (r.unrolled->workload.ops[k].issue.release)
                    own_delay.ops[k].issue.delay = r.unrolled->workload.ops[k].issue.delay;
            idle_matters += simulated_times(workload_to_toml(own_delay)) != expected;
        }
    }
    INFO(checked << " witnesses; " << release_matters << " need their releases, " << idle_matters
                 << " their after_stream_idle delays");
    CHECK(checked >= 30);
    CHECK(release_matters > 0);
    CHECK(idle_matters > 0);
}

TEST_CASE("wcrt --witness on periodic streams writes a file that simulate reproduces", "[frames][witness][cli]") {
    const std::string dir = test::temp_dir(), file = dir + "/witness.toml";
    const std::string input = test::write_file(dir, "camera-lidar.toml", camera_and_lidar);
    const WitnessJson wcrt = witness_cli_json({"wcrt", input, "--json", "--witness", file}, -1);
    const WitnessJson& first = wcrt["operations"][0];
    REQUIRE(first["name"] == "detect");
    REQUIRE(first["frame"].is_number());
    const std::string k = std::to_string(first["frame"].get<int>()), name = "detect#" + k;
    const std::string text = test::slurp(file);
    // The header names the claim, the frame and the source file.
    CHECK(test::contains(text, "# Witness: frame " + k + " of 'detect' (" + name + " here) responds in "));
    CHECK(test::contains(text, "(gpuwcrt wcrt " + input + ")"));
    const WitnessJson sim = witness_cli_json({"simulate", file, "--json"}, 0);
    bool found = false;
    for (const WitnessJson& op : sim["operations"])
        if (op["name"] == name) {
            found = true;
            CHECK(op["response"] == first["wcrt"]);
        }
    CHECK(found);
}

TEST_CASE("certify --counterexample on periodic streams writes the refuted frame", "[frames][witness][cli]") {
    // two-cameras.toml: fuse's backlog grows to a response of 10 in frame 2 (the file's own
    // expectation, derived by hand there), above its deadline of 8.
    const std::string dir = test::temp_dir(), file = dir + "/cex.toml";
    const auto r = test::run_cli(
        {"certify", test::source_path("cases/periodic/two-cameras.toml"), "--counterexample", file, "--timeout", "20"});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 1);
    CHECK(test::contains(r.out, "wrote " + file + " (gpuwcrt simulate " + file + " reproduces fuse#"));
    const std::string text = test::slurp(file);
    CHECK(test::contains(text, "Counterexample: frame "));
    CHECK(test::contains(text, "> bound 8"));
    const WitnessJson sim = witness_cli_json({"simulate", file, "--json"}, 0);
    Time worst = 0;
    for (const WitnessJson& op : sim["operations"])
        if (op["name"].get<std::string>().rfind("fuse#", 0) == 0)
            worst = std::max(worst, *parse_time(op["response"].get<std::string>()));
    CHECK(worst > 8);
}

TEST_CASE("wcrt and certify --json over frames: bounds, lower bound and its frame, valid by their schema",
          "[frames][outputs]") {
    for (const std::string command : {"wcrt", "certify"}) {
        INFO(command);
        const std::string input = test::write_file(test::temp_dir(), "camera-lidar.toml", camera_and_lidar);
        const auto r = test::run_cli({command, input, "--json"});
        REQUIRE((r.exit_code == 0 || r.exit_code == 2));
        const WitnessJson out = WitnessJson::parse(r.out);
        REQUIRE(out["operations"].size() == 2);
        for (const WitnessJson& op : out["operations"]) {
            CHECK(op["lower_bound"] == op["wcrt"]);
            CHECK(op["frame"].is_number());  // every operation here has a replayed frame
            CHECK(op["upper_bound"].is_string());
            if (command == "certify") CHECK(op["verdict"] == "certified");
        }
        if (command == "wcrt") {
            // The CSV's rows are the JSON's: the operation's name first, then its kind and stream.
            const auto csv = test::run_cli({command, input, "--csv"});
            CHECK(test::contains(csv.out, "\ndetect,kernel,cam,"));
            CHECK(test::contains(csv.out, "\nvoxel,kernel,lidar,"));
            continue;  // certify's JSON has every key of wcrt's, and bound and verdict: validated below
        }
        const auto [code, messages] = test::validate_json_text("all-time", r.out);
        INFO(messages);
        if (code == 77) WARN("not validated: python3-jsonschema is missing");
        else CHECK(code == 0);
    }
}
