// Charts over frames (report/frames/frames_chart.hpp): simulate --svg and wcrt/certify --svg on
// periodic streams draw one lane per stream with every frame from its release to its
// completion, blocks in their stream's colour, a legend by stream, and stay readable (no text
// over another or off the canvas, no name cut without its whole in a tooltip, lane titles
// clear of the lanes) at 12 streams of 12 kernels over several frames; long stream names
// widen the title column, and past 24 streams the chart says which have no lane.
#include <catch2/catch.hpp>

#include <functional>
#include <regex>
#include <set>
#include <sstream>

#include "model/frames/unroll.hpp"
#include "report/frames/frames_chart.hpp"
#include "sim/simulate.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

// `expected_exit` -1: 0 or 2 (wcrt: exact, or bounds that do not meet).
std::string frames_chart_of(const std::vector<std::string>& args, int expected_exit = 0) {
    const std::string svg = test::temp_dir() + "/chart.svg";
    std::vector<std::string> all = args;
    all.insert(all.end(), {"--svg", svg});
    const auto r = test::run_cli(all);
    INFO(r.out << r.err);
    if (expected_exit < 0) REQUIRE((r.exit_code == 0 || r.exit_code == 2));
    else REQUIRE(r.exit_code == expected_exit);
    return test::slurp(svg);
}

std::set<std::string> frames_chart_values(const std::string& svg, const std::string& pattern) {
    std::set<std::string> out;
    const std::regex re(pattern);
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it)
        out.insert((*it)[1]);
    return out;
}

void frames_chart_readable(const std::string& svg) {
    const std::vector<std::string> problems = test::svg_text_problems(svg);
    for (const std::string& p : problems) FAIL_CHECK(p);
    CHECK(problems.empty());
}

// 12 streams of 12 kernels (periods 10, 20 and 40 ms in turn, 1 ms of jitter, blocks of 0.1 to 0.4 ms), a deadline of
// one period on each stream's last kernel: the size at which a legend per kernel filled the chart.
std::string twelve_by_twelve() {
    std::ostringstream t;
    t << "title = \"12 camera streams of 12 kernels\"\ntime_unit = \"ms\"\n";
    const int periods[] = {10, 20, 40};
    for (int s = 0; s < 12; ++s)
        t << "[[stream]]\nname = \"camera_" << s << "\"\nperiod = " << periods[s % 3] << "\njitter = 1\n";
    for (int s = 0; s < 12; ++s)
        for (int k = 0; k < 12; ++k) {
            t << "[[kernel]]\nname = \"cam" << s << "_layer" << k << "\"\nstream = \"camera_" << s
              << "\"\nblocks = " << 1 + (k % 3) << "\nthreads = " << (128 << (k % 3)) << "\nblock_time = \""
              << 1 + k % 4 << "/10\"\n";
            if (k == 11) t << "deadline = " << periods[s % 3] << "\n";
        }
    return t.str();
}

}  // namespace

TEST_CASE("simulate --svg over frames: a lane per stream, every frame, colours and legend by stream", "[frames][svg]") {
    const std::string svg =
        frames_chart_of({"simulate", test::source_path("cases/periodic/two-cameras.toml"), "--frames", "3"});
    frames_chart_readable(svg);
    // Three streams, three frames each: a bar and a release tick per frame, one legend entry per
    // stream (not per kernel).
    CHECK(test::occurrences(svg, "class=\"stream\"") == 3);
    CHECK(test::occurrences(svg, "class=\"frame\"") == 9);
    CHECK(test::occurrences(svg, "class=\"release\"") == 9);
    CHECK(test::occurrences(svg, "class=\"legend\"") == 3);
    // camB's offset is 1: frames released at 1, 7, 13. fuse#2 completes at 22 (the file's
    // expectation), 22 - 12 = 10 after its frame's release.
    CHECK(test::contains(svg, "camB frame 1 released at 7</title>"));
    CHECK(test::contains(svg, "fusion frame 2: released at 12, complete at 22, response 10"));
    // fuse's deadline of 8 after its issue: missed in frames 1 to 2 (responses 9, 10), met in 0.
    CHECK(test::occurrences(svg, "class=\"frame-deadline missed\"") == 2);
    // Blocks in their stream's colour: detectA's frames share one fill, other streams differ.
    const auto fill_of = [&](const std::string& kernel) {
        return frames_chart_values(svg, "data-block=\"" + kernel + "#[0-9]+:[0-9]+\" fill=\"([^\"]+)\"");
    };
    CHECK(fill_of("detectA").size() == 1);
    CHECK(fill_of("detectB").size() == 1);
    CHECK(fill_of("detectA") != fill_of("detectB"));
    CHECK(fill_of("fuse") != fill_of("detectA"));
}

TEST_CASE("a chart of 12 streams of 12 kernels over frames stays readable", "[frames][svg]") {
    const std::string file = test::write_file(test::temp_dir(), "twelve.toml", twelve_by_twelve());
    const std::string svg = frames_chart_of({"simulate", file, "--frames", "4"});
    frames_chart_readable(svg);
    CHECK(test::occurrences(svg, "class=\"stream\"") == 12);
    CHECK(test::occurrences(svg, "class=\"frame\"") == 48);
    CHECK(test::occurrences(svg, "class=\"legend\"") == 12);
    // 576 kernels: the blocks are drawn as bands, each in its stream's colour (12 fills).
    CHECK(frames_chart_values(svg, "class=\"band\" data-kernel=\"[^\"]+\" data-blocks=\"[0-9]+\" fill=\"([^\"]+)\"")
              .size() == 12);
}

TEST_CASE("wcrt and certify --svg on periodic streams chart the witnessed frame", "[frames][svg]") {
    // A camera every 10 and a lidar every 20, each with a deadline of its period.
    const std::string input = test::write_file(
        test::temp_dir(), "camera-lidar.toml",
        "[[stream]]\nname = \"cam\"\nperiod = 10\njitter = 1\n[[stream]]\nname = \"lidar\"\nperiod = 20\n"
        "[[kernel]]\nname = \"detect\"\nstream = \"cam\"\nblocks = 2\nthreads = 1024\nblock_time = [2, 3]\n"
        "deadline = 10\n[[kernel]]\nname = \"voxel\"\nstream = \"lidar\"\nblocks = 2\nthreads = 1024\n"
        "block_time = 4\ndeadline = 20\n");
    const std::string wcrt = frames_chart_of({"wcrt", input, "--op", "voxel"}, -1);
    frames_chart_readable(wcrt);
    CHECK(std::regex_search(
        wcrt, std::regex("witness for voxel in frame ([0-9]+) \\(voxel#\\1\\): response [0-9./]+, deadline 20")));
    CHECK(test::occurrences(wcrt, "class=\"bracket\"") == 1);
    CHECK(test::occurrences(wcrt, "class=\"stream\"") == 2);
    // The witnessed operation's bar is outlined in red.
    CHECK(std::regex_search(wcrt, std::regex("data-op=\"voxel#[0-9]+\" fill=\"[^\"]+\" stroke=\"#d00000\"")));
    const std::string cex = frames_chart_of({"certify", test::source_path("cases/periodic/two-cameras.toml")}, 1);
    frames_chart_readable(cex);
    CHECK(std::regex_search(cex, std::regex("counterexample for fuse in frame [0-9]+ \\(fuse#[0-9]+\\): response "
                                            "[0-9./]+ &gt; bound 8")));
    CHECK(test::occurrences(cex, "class=\"deadline\"") == 1);
}

namespace {

// `streams` streams named by `name`, each of one kernel every 10 with a deadline of 10.
std::string streams_of_one_kernel(int streams, const std::function<std::string(int)>& name) {
    std::ostringstream t;
    for (int s = 0; s < streams; ++s) t << "[[stream]]\nname = \"" << name(s) << "\"\nperiod = 10\n";
    for (int s = 0; s < streams; ++s)
        t << "[[kernel]]\nname = \"k" << s << "\"\nstream = \"" << name(s)
          << "\"\nblocks = 1\nthreads = 256\nblock_time = \"1/10\"\ndeadline = 10\n";
    return t.str();
}

// The texts of the stream lanes' titles, and for each cut one the whole name in its tooltip.
std::vector<std::pair<std::string, std::string>> stream_titles(const std::string& svg) {
    std::vector<std::pair<std::string, std::string>> out;
    const std::regex re("(<g><title>([^<]*)</title>)?<text[^>]*class=\"stream\"[^>]*>([^<]*)</text>");
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it)
        out.push_back({(*it)[3], (*it)[2]});
    return out;
}

}  // namespace

TEST_CASE("stream lanes carry whole names up to 200 px, longer ones cut in the middle with the whole in a tooltip",
          "[frames][svg]") {
    const std::vector<std::string> names{"SFM_host_to_device", "Lane_Detection_Function",
                                         "rear_camera_parking_assistant_tracking_1",
                                         "rear_camera_parking_assistant_tracking_11"};
    const std::string file =
        test::write_file(test::temp_dir(), "names.toml", streams_of_one_kernel(4, [&](int s) { return names[s]; }));
    const std::string svg = frames_chart_of({"simulate", file, "--frames", "2"});
    frames_chart_readable(svg);
    const auto titles = stream_titles(svg);
    REQUIRE(titles.size() == 4);
    CHECK(titles[0] == std::pair<std::string, std::string>{names[0], ""});
    CHECK(titles[1] == std::pair<std::string, std::string>{names[1], ""});
    // 40 characters are past the cap: both cut, their ends kept apart, each whole in its tooltip.
    CHECK(titles[2].first != names[2]);
    CHECK(titles[2].first != titles[3].first);
    CHECK(titles[2].second == names[2]);
    CHECK(titles[3].second == names[3]);
    CHECK(titles[3].first.ends_with("tracking_11"));
}

TEST_CASE("past 24 streams a chart draws 24 lanes, the charted operation's among them, and counts the others",
          "[frames][svg]") {
    const Workload w =
        test::workload_from(streams_of_one_kernel(30, [](int s) { return "stream_" + std::to_string(s); }));
    const Unrolled u = unroll(w, Horizon::of_frames(2, {"test", 0, 0}));
    const Schedule s = simulate(u.workload);
    const int last = *u.workload.find_op("k29#1");
    for (const ChartContext& ctx : {schedule_chart(u.workload), witness_chart(u.workload, last, s.response(last))}) {
        const std::string svg = frames_svg(FramesChart{w, u, s, {}, true}, ctx);
        frames_chart_readable(svg);
        CHECK(stream_titles(svg).size() == 24);
        CHECK(test::occurrences(svg, "class=\"legend\"") == 24);
        CHECK(test::contains(svg, ">6 of 30 streams have no lane"));
        // The charted operation's stream keeps its lane, then come the first in file order.
        const bool witness = ctx.kind == ChartKind::witness;
        CHECK(test::contains(svg, "class=\"stream\" font-weight=\"bold\">stream_29<") == witness);
        CHECK(test::contains(svg, "class=\"stream\" font-weight=\"bold\">stream_23<") == !witness);
        CHECK(test::contains(svg, "class=\"stream\" font-weight=\"bold\">stream_22<"));
    }
}
