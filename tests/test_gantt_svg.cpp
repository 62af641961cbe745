// The Gantt chart is well-formed XML, draws every block and copy with its label, and never
// lets two blocks that run together on one SM share a thread range.
#include <catch2/catch.hpp>

#include <map>
#include <regex>

#include "report/gantt_layout.hpp"
#include "report/gantt_svg.hpp"
#include "sim/simulate.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

// A small structural XML check: balanced, properly nested tags, quoted attributes, no bare
// '&' or '<' in text. Enough to catch what a string-built SVG can get wrong.
void check_well_formed(const std::string& xml) {
    std::vector<std::string> open;
    std::size_t i = 0;
    if (xml.rfind("<?xml", 0) == 0) i = xml.find("?>") + 2;
    int roots = 0;
    while (i < xml.size()) {
        if (xml[i] != '<') {
            if (xml[i] == '&') {
                const std::size_t semi = xml.find(';', i);
                REQUIRE(semi != std::string::npos);
                const std::string entity = xml.substr(i, semi - i + 1);
                CHECK((entity == "&amp;" || entity == "&lt;" || entity == "&gt;" || entity == "&quot;" ||
                       entity == "&apos;"));
            }
            if (open.empty()) CHECK(std::isspace(static_cast<unsigned char>(xml[i])));
            ++i;
            continue;
        }
        const std::size_t end = xml.find('>', i);
        REQUIRE(end != std::string::npos);
        std::string tag = xml.substr(i + 1, end - i - 1);
        i = end + 1;
        if (tag[0] == '/') {
            REQUIRE(!open.empty());
            CHECK(open.back() == tag.substr(1));
            open.pop_back();
            continue;
        }
        const bool self_closing = tag.back() == '/';
        if (self_closing) tag.pop_back();
        const std::string name = tag.substr(0, tag.find_first_of(" \n"));
        const std::string attrs = tag.substr(name.size());
        static const std::regex attr_list(R"((\s+[A-Za-z_:][-A-Za-z0-9_:.]*="[^"<]*")*\s*)");
        CHECK(std::regex_match(attrs, attr_list));
        if (open.empty()) ++roots;
        if (!self_closing) open.push_back(name);
    }
    CHECK(open.empty());
    CHECK(roots == 1);
}

}  // namespace

TEST_CASE("the Fig. 3 chart is well-formed and labels every block and copy", "[svg]") {
    const Workload w = load_workload_file(test::source_path("cases/amert2017/fig3.toml"));
    const Schedule s = simulate(w);
    const std::string svg = gantt_svg(w, s);
    check_well_formed(svg);
    CHECK(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\"") != std::string::npos);
    for (const BlockTiming& b : s.blocks) {
        const std::string label = w.ops[b.kernel].name + ":" + std::to_string(b.index);
        INFO(label);
        CHECK(test::occurrences(svg, "data-block=\"" + label + "\"") == 1);
        CHECK(test::occurrences(svg, ">" + label + "</text>") == 1);
    }
    CHECK(test::occurrences(svg, "class=\"block\"") == s.blocks.size());
    for (const Operation& o : w.ops)
        if (!o.is_kernel()) CHECK(test::occurrences(svg, "data-copy=\"" + o.name + "\"") == 1);
    CHECK(test::occurrences(svg, ">CE</text>") == 1);
    CHECK(test::occurrences(svg, ">SM0</text>") == 1);
    CHECK(test::occurrences(svg, ">SM1</text>") == 1);
    CHECK(test::occurrences(svg, "class=\"launch\"") == w.ops.size());
}

TEST_CASE("names that need escaping still give well-formed SVG", "[svg]") {
    const Workload w = test::workload_from(R"(
[[kernel]]
name = "a<b>&\"c'"
blocks = 2
threads = 1024
block_time = 1
)");
    const std::string svg = gantt_svg(w, simulate(w));
    check_well_formed(svg);
    CHECK(svg.find("a&lt;b&gt;&amp;&quot;c&apos;:1") != std::string::npos);
}

TEST_CASE("blocks running together on one SM get disjoint thread ranges within the lane", "[svg]") {
    for (const char* f : {"cases/amert2017/fig3.toml", "cases/amert2017/fig8.toml", "cases/thesis/example.toml"}) {
        INFO(f);
        const Workload w = load_workload_file(test::source_path(f));
        const Schedule s = simulate(w);
        const auto offset = pack_block_offsets(w, s);
        for (std::size_t i = 0; i < s.blocks.size(); ++i) {
            const auto& a = s.blocks[i];
            CHECK(offset[i] >= 0);
            // The SM never holds more than threads_per_sm, so a packing within capacity exists
            // for these cases; the lowest-fit packing finds it.
            CHECK(offset[i] + w.ops[a.kernel].threads <= w.platform.threads_per_sm);
            for (std::size_t j = 0; j < i; ++j) {
                const auto& b = s.blocks[j];
                const bool together = a.sm == b.sm && a.start < b.end && b.start < a.end;
                const bool share =
                    offset[i] < offset[j] + w.ops[b.kernel].threads && offset[j] < offset[i] + w.ops[a.kernel].threads;
                CHECK_FALSE((together && share));
            }
        }
    }
}

TEST_CASE("tick steps and pixel printing are exact", "[svg]") {
    CHECK(tick_step(Time(48, 10), 12) == Time(1, 2));
    CHECK(tick_step(Time(17), 12) == Time(2));
    CHECK(tick_step(Time(1, 100), 12) == Time(1, 1000));
    CHECK(px(Time(1, 3)) == "0.33");
    CHECK(px(Time(250)) == "250");
    const PixelScale xs{Time(70), Time(900) / Time(24, 5)};
    CHECK(px(xs.x(Time(28, 10))) == "595");
}
