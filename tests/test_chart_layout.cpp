// Charts stay readable from 4 blocks to 10 000: the test reads the SVG back (every <text> with
// its position, size and anchor) and checks that no two texts overlap, that every text lies
// within the canvas, that no launch arrow runs through a text, that small blocks are drawn as
// one band per kernel and SM carrying every block, that kernels get different fills, and that
// the title, the unit and the marks of a witness or counterexample are there.
#include <catch2/catch.hpp>

#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "report/chart_style.hpp"
#include "report/gantt_svg.hpp"
#include "sim/simulate.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

// No two texts overlap, every text lies within the canvas, no launch arrow runs through a text.
void check_readable(const std::string& svg) {
    const std::vector<std::string> problems = test::svg_text_problems(svg);
    for (const std::string& p : problems) FAIL_CHECK(p);
    CHECK(problems.empty());
}

// `kernels` kernels over `streams` streams, about `blocks` blocks in all, a copy in and out per
// stream, deadlines on the copies out, block times of 1 to 5 hundredths of a ms times `scale`.
// Long names, so that labels have to be shortened or left out.
Workload pipeline(std::int64_t blocks, int kernels, int streams, int scale = 1) {
    std::ostringstream t;
    t << "title = \"pipeline of " << blocks << " blocks\"\ntime_unit = \"ms\"\n";
    for (int s = 0; s < streams; ++s) t << "[[stream]]\nname = \"s" << s << "\"\n";
    for (int s = 0; s < streams; ++s)
        t << "[[copy]]\nname = \"s" << s << "_frame_in\"\nstream = \"s" << s << "\"\nduration = 0." << 2 + s
          << "\nissue = 0\n";
    for (int k = 0; k < kernels; ++k)
        t << "[[kernel]]\nname = \"layer_" << k << "_convolution\"\nstream = \"s" << k % streams
          << "\"\nblocks = " << std::max<std::int64_t>(1, blocks / kernels) << "\nthreads = " << (128 << (k % 4))
          << "\nblock_time = \"" << (1 + k % 5) * scale << "/100\"\n";
    for (int s = 0; s < streams; ++s)
        t << "[[copy]]\nname = \"s" << s << "_frame_out\"\nstream = \"s" << s
          << "\"\nduration = 0.3\ndeadline = " << 1 + s << "\n";
    return test::workload_from(t.str());
}

}  // namespace

TEST_CASE("charts of 4, 20, 1000 and 10000 blocks have no overlapping, clipped or crossed texts", "[svg]") {
    for (const auto& [blocks, kernels, streams] :
         std::vector<std::tuple<std::int64_t, int, int>>{{4, 2, 2}, {20, 4, 2}, {1000, 30, 4}, {10000, 30, 4}}) {
        INFO(blocks << " blocks");
        const Workload w = pipeline(blocks, kernels, streams, blocks <= 20 ? 20 : 1);
        const Schedule s = simulate(w);
        const int out = *w.find_op("s1_frame_out");
        for (const ChartContext& ctx : {schedule_chart(w), witness_chart(w, out, s.response(out)),
                                        counterexample_chart(w, out, s.response(out), s.response(out) / 2)}) {
            INFO("chart kind " << static_cast<int>(ctx.kind));
            check_readable(gantt_svg(w, s, ctx));
        }
    }
}

TEST_CASE("blocks too small to label become one band per kernel and SM that counts every block", "[svg]") {
    for (std::int64_t blocks : {1000, 10000}) {
        const Workload w = pipeline(blocks, 30, 4);
        const std::string svg = gantt_svg(w, simulate(w));
        CHECK(test::occurrences(svg, "class=\"block\"") == 0);
        const std::size_t bands = test::occurrences(svg, "class=\"band\"");
        CHECK(bands >= 30);
        CHECK(bands <= 30 * static_cast<std::size_t>(w.platform.sms));
        std::int64_t drawn = 0;
        const std::regex re("class=\"band\" data-kernel=\"[^\"]*\" data-blocks=\"([0-9]+)\"");
        for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it)
            drawn += std::stoll((*it)[1]);
        CHECK(drawn == w.total_blocks());
        CHECK(svg.find("blocks, ") != std::string::npos);  // the count in a band's tooltip
    }
    const Workload small = pipeline(20, 4, 2, 20);
    const std::string svg = gantt_svg(small, simulate(small));
    CHECK(test::occurrences(svg, "class=\"block\"") == static_cast<std::size_t>(small.total_blocks()));
    CHECK(test::occurrences(svg, "class=\"band\"") == 0);
}

TEST_CASE("kernel fills differ: 24 colours, then the colours under patterns", "[svg]") {
    std::set<std::string> fills, colours;
    for (int n = 0; n < chart_colours * (chart_patterns + 1); ++n) {
        fills.insert(kernel_fill(n).fill());
        colours.insert(kernel_fill(n).colour);
    }
    CHECK(colours.size() == chart_colours);
    CHECK(fills.size() == chart_colours * (chart_patterns + 1));
    const Workload w = pipeline(1000, 30, 4);
    const std::string svg = gantt_svg(w, simulate(w));
    for (int n = chart_colours; n < 30; ++n)  // every pattern a fill refers to is defined
        CHECK(test::occurrences(
                  svg, "<pattern id=\"" + kernel_fill(n).fill().substr(5, kernel_fill(n).fill().size() - 6) + "\"") ==
              1);
}

TEST_CASE("the chart is headed by the workload's title, else its file name, and the axis gives the unit", "[svg]") {
    Workload w = pipeline(20, 4, 2);
    std::string svg = gantt_svg(w, simulate(w));
    CHECK(svg.find("class=\"title\" font-weight=\"bold\">pipeline of 20 blocks</text>") != std::string::npos);
    CHECK(svg.find(">t (ms)</text>") != std::string::npos);
    w.title.clear();
    w.source = "some/dir/pipe.toml";
    w.time_unit.clear();
    svg = gantt_svg(w, simulate(w));
    CHECK(svg.find(">pipe.toml</text>") != std::string::npos);
    CHECK(svg.find(">t</text>") != std::string::npos);
}

TEST_CASE("witness and counterexample charts name the operation, its response and the deadline or bound", "[svg]") {
    const Workload w = pipeline(20, 4, 2, 20);
    const Schedule s = simulate(w);
    const int out = *w.find_op("s1_frame_out");
    const Time r = s.response(out);
    const std::string witness = gantt_svg(w, s, witness_chart(w, out, r));
    const std::string cex = gantt_svg(w, s, counterexample_chart(w, out, r, Time(1)));
    CHECK(witness != cex);
    CHECK(witness.find(">witness for s1_frame_out: response " + human_string(r) + " ms, deadline 2 ms</text>") !=
          std::string::npos);
    CHECK(cex.find(">counterexample for s1_frame_out: response " + human_string(r) + " ms &gt; bound 1 ms</text>") !=
          std::string::npos);
    // The bracket spans issue to completion; the dashed line stands at issue + deadline.
    const std::regex bracket("<line x1=\"([0-9.]+)\" y1=\"[0-9.]+\" x2=\"([0-9.]+)\" y2=\"[0-9.]+\" class=\"bracket\"");
    std::smatch m;
    REQUIRE(std::regex_search(witness, m, bracket));
    const std::regex deadline("<line x1=\"([0-9.]+)\" y1=\"[0-9.]+\" x2=\"[0-9.]+\" y2=\"[0-9.]+\" class=\"deadline\"");
    std::smatch d;
    REQUIRE(std::regex_search(witness, d, deadline));
    // Scale-free: (deadline x - issue x) / (completion x - issue x) = deadline / response.
    const double issue_x = std::stod(m[1]), finish_x = std::stod(m[2]), deadline_x = std::stod(d[1]);
    CHECK(issue_x < finish_x);
    const double expected = 2.0 / std::stod(human_string(r));
    CHECK((deadline_x - issue_x) / (finish_x - issue_x) == Approx(expected).epsilon(0.01));
    CHECK(test::occurrences(gantt_svg(w, s), "class=\"bracket\"") == 0);
    CHECK(test::occurrences(gantt_svg(w, s), "class=\"deadline\"") == 0);
}

TEST_CASE("launches a few pixels apart share one arrow and every name is listed beside none other", "[svg]") {
    // As in a measured trace: the host's calls return microseconds apart on a chart of seconds.
    std::ostringstream t;
    for (int k = 0; k < 4; ++k)
        t << "[[stream]]\nname = \"s" << k << "\"\n[[kernel]]\nname = \"Kernel " << k + 1 << "\"\nstream = \"s" << k
          << "\"\nblocks = 2\nthreads = 512\nblock_time = " << 4 + k << "\nissue = \"" << k << "/10000\"\n";
    const Workload w = test::workload_from(t.str());
    const std::string svg = gantt_svg(w, simulate(w));
    check_readable(svg);
    CHECK(test::occurrences(svg, "class=\"launch-arrow\"") == 1);
    for (int k = 1; k <= 4; ++k)
        CHECK(test::occurrences(svg, "class=\"launch\" fill=\"#222\">Kernel " + std::to_string(k) + "<") == 1);
}

TEST_CASE("a legend lists at most 48 operations, the marked one among them, and counts the others", "[svg]") {
    const Workload w = pipeline(2000, 100, 4);  // 100 kernels and 8 copies
    const Schedule s = simulate(w);
    const int out = *w.find_op("s3_frame_out");  // the last operation in file order
    for (const ChartContext& ctx : {schedule_chart(w), witness_chart(w, out, s.response(out))}) {
        const std::string svg = gantt_svg(w, s, ctx);
        check_readable(svg);
        CHECK(test::occurrences(svg, "class=\"legend\"") == 48);
        CHECK(test::contains(svg, ">60 more operations not listed"));
        CHECK(test::contains(svg, "class=\"legend\">layer_0_convolution: "));
        CHECK(test::contains(svg, "class=\"legend\">s3_frame_out: ") == (ctx.kind == ChartKind::witness));
    }
    // In a window, the legend lists what is in view: the last copy, not the first kernel, done
    // before the window opens.
    ChartContext late = schedule_chart(w);
    const int first = *w.find_op("layer_0_convolution");
    REQUIRE(s.ops[first].finish < s.ops[out].start);
    late.window = TimeWindow{s.ops[out].start, s.ops[out].finish};
    const std::string svg = gantt_svg(w, s, late);
    check_readable(svg);
    CHECK_FALSE(test::contains(svg, "class=\"legend\">layer_0_convolution: "));
    CHECK(test::contains(svg, "class=\"legend\">s3_frame_out: "));
}

TEST_CASE("bands past 24 rows share an SM lane's last row and the chart says so", "[svg]") {
    // 64 kernels of one block each, all issued at once: more bands at a time than rows.
    std::ostringstream t;
    for (int k = 0; k < 64; ++k)
        t << "[[stream]]\nname = \"s" << k << "\"\n[[kernel]]\nname = \"k" << k << "\"\nstream = \"s" << k
          << "\"\nblocks = 1\nthreads = 32\nblock_time = " << 1 + k % 3 << "\n";
    const Workload w = test::workload_from(t.str());
    const std::string svg = gantt_svg(w, simulate(w));
    check_readable(svg);
    std::map<std::string, std::set<std::string>> rows_at;  // distinct band tops, per lane
    const std::regex band("<rect x=\"[0-9.]+\" y=\"([0-9.]+)\"[^>]*class=\"band\"[^>]*><title>k[0-9]+ on (SM[0-9]+)");
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), band); it != std::sregex_iterator(); ++it)
        rows_at[(*it)[2]].insert((*it)[1]);
    REQUIRE(!rows_at.empty());
    for (const auto& [sm, rows] : rows_at) CHECK(rows.size() <= 24);
    CHECK(test::occurrences(svg, "class=\"band\"") == 64);
    CHECK(test::contains(svg, ">SM lanes: at most 24 rows of bands each"));
}
