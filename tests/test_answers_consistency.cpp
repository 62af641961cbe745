// The answers of `wcrt` and `certify` agree and say what they are: the bound an engine proves
// is the same under both commands, certify's margin says whether the WCRT may be lower, the
// CSV has the JSON's columns, every --help lists the memory limit, tables keep within the width
// docs/guide/outputs-for-scripts.md promises, and the progress line counts every decided operation.
#include <catch2/catch.hpp>

#include <sstream>

#include <nlohmann/json.hpp>

#include "report/display_width.hpp"
#include "report/text_table.hpp"
#include "solver/engine.hpp"
#include "support.hpp"

using namespace gpuwcrt;
using nlohmann::json;
using test::run_cli;

namespace {

// H2's deadline 5 is certified by the interference bound 4 before any search, while the
// abstraction proves the WCRT, 2 (the file derives both).
std::string answers_detect_file(const std::string&) {
    return test::source_path("tests/data/answers/low-behind-high.toml");
}

const json* answers_op(const json& list, const std::string& name) {
    for (const json& op : list)
        if (op["name"] == name) return &op;
    return nullptr;
}

}  // namespace

TEST_CASE("certify --engine bounds reports the bound wcrt --engine bounds proves", "[answers]") {
    const std::string file = answers_detect_file(test::temp_dir());
    const auto w = run_cli({"wcrt", file, "--engine", "bounds", "--json"});
    const auto c = run_cli({"certify", file, "--engine", "bounds", "--json"});
    INFO(w.err << c.err);
    REQUIRE(w.exit_code == 0);
    REQUIRE(c.exit_code == 0);
    const json wj = json::parse(w.out), cj = json::parse(c.out);
    for (const char* name : {"H2"}) {
        INFO(name);
        const json* wo = answers_op(wj["operations"], name);
        const json* co = answers_op(cj["operations"], name);
        REQUIRE(wo);
        REQUIRE(co);
        CHECK((*co)["verdict"] == "certified");
        CHECK((*co)["upper_bound"] == (*wo)["upper_bound"]);
        CHECK((*co)["upper_by"] == (*wo)["upper_by"]);
        CHECK((*co)["upper_bound"] == "2");  // not the interference bound 4 that settles it first
    }
}

TEST_CASE("certify's margin: at least bound - proven bound, exact only when the WCRT is known", "[answers]") {
    const std::string file = answers_detect_file(test::temp_dir());
    // auto stops at the interference bound 4: margin >= 5 - 4 = 1, the WCRT may be lower.
    const auto text = run_cli({"certify", file});
    REQUIRE(text.exit_code == 0);
    CHECK(text.out.find("margin") != std::string::npos);
    CHECK(text.out.find("≥ 1") != std::string::npos);
    const auto j = run_cli({"certify", file, "--json"});
    const json doc = json::parse(j.out);
    const json* first = answers_op(doc["operations"], "H2");
    REQUIRE(first);
    CHECK((*first)["margin"] == "1");
    CHECK((*first)["margin_exact"] == false);
    // A refuted bound has no margin.
    const auto refuted = run_cli({"certify", file, "--only-bounds", "--bound", "H2=1", "--json"});
    CHECK(refuted.exit_code == 1);
    const json refuted_doc = json::parse(refuted.out);
    const json* r = answers_op(refuted_doc["operations"], "H2");
    REQUIRE(r);
    CHECK((*r)["margin"].is_null());
    CHECK((*r)["margin_exact"].is_null());
}

TEST_CASE("certify's margin is exact where the engine knows the WCRT", "[answers]") {
    // cases/thesis/block-analysis-1.toml: the exact engine decides every WCRT, so t4's margin
    // against 20 is 20 - WCRT exactly (the WCRT read from wcrt --engine exact).
    const std::string file = test::source_path("cases/thesis/block-analysis-1.toml");
    const auto w = run_cli({"wcrt", file, "--engine", "exact", "--op", "t4", "--json"});
    REQUIRE(w.exit_code == 0);
    const json doc = json::parse(w.out);
    const json* t4 = answers_op(doc["operations"], "t4");
    REQUIRE(t4);
    REQUIRE((*t4)["status"] == "exact");
    const Time wcrt = *parse_time((*t4)["wcrt"].get<std::string>());
    const auto c = run_cli({"certify", file, "--engine", "exact", "--only-bounds", "--bound", "t4=20", "--csv"});
    REQUIRE(c.exit_code == 0);
    std::istringstream rows(c.out);
    std::string header, row;
    std::getline(rows, header);
    std::getline(rows, row);
    CHECK(header.find(",margin,margin_exact,") != std::string::npos);
    CHECK(row.find("," + exact_string(Time(20) - wcrt) + ",true,") != std::string::npos);
}

TEST_CASE("wcrt --csv has the unknown_reason of its JSON", "[answers]") {
    // The exact engine ranges over an interval on the grid only: a lower bound, unknown (grid).
    const std::string file = test::source_path("cases/abstraction/interior-block-time.toml");
    const auto j = run_cli({"wcrt", file, "--engine", "exact", "--json"});
    const auto c = run_cli({"wcrt", file, "--engine", "exact", "--csv"});
    REQUIRE(j.exit_code == 2);
    REQUIRE(c.exit_code == 2);
    const json ops = json::parse(j.out)["operations"];
    REQUIRE(ops[0].contains("unknown_reason"));
    const std::string header = c.out.substr(0, c.out.find('\n'));
    CHECK(header.substr(header.size() - std::string(",unknown_reason").size()) == ",unknown_reason");
    const std::string reason = ops[0]["unknown_reason"].get<std::string>();
    CHECK(test::contains(c.out, "," + reason + "\n"));
}

TEST_CASE("every subcommand's --help lists --max-memory with its default", "[answers]") {
    const auto top = run_cli({"--help"});
    REQUIRE(top.exit_code == 0);
    int checked = 0;
    for (const char* sub : {"simulate", "wcrt", "certify", "rta", "rta-check", "import-examiner", "import-amalthea",
                            "compare-trace", "warp"}) {
        INFO(sub);
        const auto h = run_cli({sub, "--help"});
        CHECK(h.exit_code == 0);
        CHECK(test::contains(h.out, "--max-memory"));
        CHECK(test::contains(h.out, "(default "));
        ++checked;
    }
    CHECK(checked == 9);
    // Given after the subcommand it is still the one limit.
    const auto bad = run_cli({"simulate", test::source_path("cases/thesis/example.toml"), "--max-memory", "x"});
    CHECK(bad.exit_code == 3);
    CHECK(test::contains(bad.err, "--max-memory"));
}

TEST_CASE("a table wider than 120 columns wraps its widest text column, losing nothing", "[answers]") {
    const std::string long_text =
        "order K1, K2, K3, K4, K5, K6, K7, K8, K9, K10, K11, K12, K13, K14, K15, K16, K17, K18, K19, K20; SMs: "
        "--wide";
    TextTable t({"operation", "wcrt", "status", "witness"});
    t.add({TableCell("camera_front_left_preprocess"), TableCell(Time(3, 2)),
           TableCell("unknown (timeout) with a long reason"), TableCell(long_text)});
    t.add({TableCell("K2"), TableCell(Time(1, 3)), TableCell("exact"), TableCell("-")});
    std::ostringstream out;
    t.print(out);
    std::istringstream lines(out.str());
    std::string line, joined;
    int n = 0;
    while (std::getline(lines, line)) {
        INFO(line);
        CHECK(display_width(line) <= max_table_width);
        CHECK((line.empty() || line.back() != ' '));
        joined += line + "\n";
        ++n;
    }
    // Header, the first row on more than one line, the second row.
    CHECK(n > 3);
    // Every word of the long cell is printed; the times keep their columns (1.5 and 1/3, to the
    // nearest 0.000001).
    for (const char* word : {"K1,", "K20;", "SMs:", "--wide", "camera_front_left_preprocess", "1.500000", "0.333333"})
        CHECK(test::contains(joined, word));
    // A short table is unchanged: one line per row.
    TextTable small({"a", "b"});
    small.add({TableCell("x"), TableCell("y")});
    std::ostringstream s;
    small.print(s);
    CHECK(s.str() == "a  b\nx  y\n");
}

TEST_CASE("the progress counters count every decided operation and show the worst open bounds", "[answers]") {
    const Workload w = test::workload_from(
        "[[stream]]\nname = \"s\"\n"
        "[[kernel]]\nname = \"A\"\nstream = \"s\"\nblocks = 1\nthreads = 32\nblock_time = 1\n"
        "[[kernel]]\nname = \"B\"\nstream = \"s\"\nblocks = 1\nthreads = 32\nblock_time = 1\n"
        "[[kernel]]\nname = \"C\"\nstream = \"s\"\nblocks = 1\nthreads = 32\nblock_time = 1\n");
    std::vector<WcrtAnswer> answers = unknown_answers(w);
    // A: certified by an upper bound alone (settled for certify below 5); B: open in [2, 7];
    // C: open in [1, 9], the worst.
    answers[0].upper = Time(4);
    answers[1].lower = Time(2);
    answers[1].upper = Time(7);
    answers[2].lower = Time(1);
    answers[2].upper = Time(9);
    auto below_five = [](const WcrtAnswer& a) { return a.upper && *a.upper <= 5; };
    RunCounters counters;
    publish_progress(w, answers, {0, 1, 2}, below_five, counters);
    CHECK(counters.operations == 3);
    CHECK(counters.decided == 1);
    CHECK(counters.worst_open.get() == "C in [1, 9]");
    // A run on the two open operations of the three keeps the one decided before it.
    publish_progress(w, answers, {1, 2}, below_five, counters);
    CHECK(counters.decided == 1);
    answers[2].upper = Time(5);
    publish_progress(w, answers, {1, 2}, below_five, counters);
    CHECK(counters.decided == 2);
    CHECK(counters.worst_open.get() == "B in [2, 7]");
    // Without `settled`: exact only; nothing exact here, every operation open.
    RunCounters exact_only;
    publish_progress(w, answers, {0, 1, 2}, {}, exact_only);
    CHECK(exact_only.decided == 0);
    CHECK(exact_only.worst_open.get() == "B in [2, 7]");
}

TEST_CASE("a table whose headers make it too wide wraps the headers at their blanks, not the values", "[answers]") {
    // Five time columns under headers of 26 to 29 columns: 9 + 5 x 2 + 137 = 156 columns unwrapped.
    const std::vector<std::string> header{"operation",
                                          "measured response in seconds",
                                          "predicted response in seconds",
                                          "difference of the responses",
                                          "measured finish in seconds",
                                          "predicted finish in seconds"};
    TextTable t(header);
    t.add({TableCell("K1"), TableCell(Time(3, 2)), TableCell(Time(2)), TableCell(Time(1, 2)), TableCell(Time(5)),
           TableCell(Time(11, 2))});
    std::ostringstream out;
    t.print(out);
    std::istringstream lines(out.str());
    std::vector<std::string> all;
    for (std::string line; std::getline(lines, line);) {
        INFO(line);
        CHECK(display_width(line) <= max_table_width);
        all.push_back(line);
    }
    REQUIRE(all.size() >= 3);  // the header on two or more lines, then the row
    CHECK(all.back().rfind("K1", 0) == 0);
    CHECK(test::contains(all.back(), "1.5"));  // values whole, in their notation
    CHECK(test::contains(all.back(), "5.5"));
}
