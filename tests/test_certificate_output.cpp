// What a signed certificate shows (report/time_notation.hpp, report/assumptions/,
// report/critical_operation.hpp, app/chart_choice.hpp): decimals rounded so that a bound stays
// a bound, the assumptions the answer rests on, and the chart of the critical operation.
#include <catch2/catch.hpp>

#include <sstream>

#include "model/io/write_toml.hpp"
#include "report/critical_operation.hpp"
#include "report/csv/csv_rows.hpp"
#include "report/text_table.hpp"
#include "support.hpp"

using namespace gpuwcrt;
using test::run_cli;
using test::source_path;

namespace {

std::string cert_table(const std::vector<TableCell>& row) {
    TextTable t({"operation", "wcrt", "upper bound", "deadline"});
    t.add(row);
    std::ostringstream out;
    t.print(out);
    return out.str();
}

// Restores the default (decimal) output when a test that asked for exact times ends.
struct CertExactTimes {
    CertExactTimes() { set_exact_times(true); }
    ~CertExactTimes() { set_exact_times(false); }
};

bool cert_has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// One kernel of one block of 512 threads in its own stream, issued at 0.
std::string cert_kernel(const std::string& name, const std::string& block_time, const std::string& deadline) {
    return "[[stream]]\nname = \"" + name + "_s\"\n[[kernel]]\nname = \"" + name + "\"\nstream = \"" + name +
           "_s\"\nblocks = 1\nthreads = 512\nblock_time = " + block_time + "\ndeadline = " + deadline + "\n";
}

// Two kernels issued together that run side by side: "wide" has the larger deadline but the
// smaller margin (deadline - WCRT: 12 - 10 against 50 - 1), so it is the critical one although
// it comes second.
const std::string cert_two_margins = cert_kernel("narrow", "1", "50") + cert_kernel("wide", "10", "12");

}  // namespace

TEST_CASE("an upper bound rounds up and a lower bound down, each to 0.000001, short values stay exact",
          "[certificate]") {
    const Time third(1, 3);
    const std::string text = cert_table({"k", TableCell::lower(third), TableCell::upper(third), Time(15)});
    INFO(text);
    CHECK(cert_has(text, "0.333333  "));
    CHECK(cert_has(text, "0.333334"));
    CHECK(cert_has(text, "15"));
    CHECK_FALSE(cert_has(text, "1/3"));
    CHECK(cert_has(text, rounding_note()));
    // Values whose decimals end within 6 digits are exact, and the table says nothing of rounding.
    const std::string exact = cert_table({"k", TableCell::lower(Time(1, 2)), TableCell::upper(Time(59, 10)), Time(15)});
    CHECK(cert_has(exact, "0.5"));
    CHECK(cert_has(exact, "5.9"));
    CHECK_FALSE(cert_has(exact, "rounded"));
    // Negative times round the same way (down is toward -infinity), nearest rounds half away from zero.
    CHECK(rounded_decimal(Time(-1, 3), 6, Rounding::up) == "-0.333333");
    CHECK(rounded_decimal(Time(-1, 3), 6, Rounding::down) == "-0.333334");
    CHECK(rounded_decimal(Time(2, 3), 6, Rounding::nearest) == "0.666667");
    CHECK(rounded_decimal(Time(1, 3000000), 6, Rounding::nearest) == "0.000000");
    CHECK(rounded_decimal(Time(-1, 3000000), 6, Rounding::up) == "0.000000");
    // The rounded text brackets the value: never below an upper bound, never above a lower one.
    for (long den = 1; den < 400; den += 7) {
        const Time t(1000003, den);
        CHECK(*parse_time(time_text(t, Rounding::up).text) >= t);
        CHECK(*parse_time(time_text(t, Rounding::down).text) <= t);
    }
}

TEST_CASE("tables and CSV keep the exact fractions with --exact", "[certificate]") {
    const CertExactTimes exact;
    const std::string text = cert_table({"k", TableCell::lower(Time(1, 3)), TableCell::upper(Time(1, 3)), Time(15)});
    CHECK(cert_has(text, "1/3"));
    CHECK_FALSE(cert_has(text, "0.33333"));
    const Json rows = Json::array({Json{{"name", "k"}, {"upper_bound", "59/10"}}});
    CHECK(csv_from_json(rows, {"operation", "upper_bound"}, bound_csv_times) == "operation,upper_bound\nk,59/10\n");
}

TEST_CASE("CSV writes times as decimals rounded by column, names and other values as they are", "[certificate]") {
    const Json rows = Json::array({Json{{"name", "1/3"},
                                        {"wcrt", "1/3"},
                                        {"upper_bound", "1/3"},
                                        {"deadline", "59/10"},
                                        {"status", "exact"},
                                        {"frame", 2}}});
    CHECK(csv_from_json(rows, {"operation", "wcrt", "upper_bound", "deadline", "status", "frame"}, bound_csv_times) ==
          "operation,wcrt,upper_bound,deadline,status,frame\n1/3,0.333333,0.333334,5.9,exact,2\n");
}

TEST_CASE("the workload's assumptions are read, located when wrong, and written back", "[certificate]") {
    const std::string body = "\n[[kernel]]\nname = \"k\"\nblocks = 1\nthreads = 32\nblock_time = 1\n";
    const Workload w = test::workload_from("assumptions = [\"grid of 'k' given by --grid: 1 block\", \"b\"]\n" + body);
    REQUIRE(w.assumptions.size() == 2);
    CHECK(w.assumptions[0] == "grid of 'k' given by --grid: 1 block");
    CHECK(test::workload_from(workload_to_toml(w)).assumptions == w.assumptions);
    try {
        (void)test::workload_from("assumptions = [\"a\", 3]\n" + body);
        FAIL("a number among the assumptions was accepted");
    } catch (const InputError& e) {
        CHECK(cert_has(e.what(), "test.toml:1:"));
        CHECK(cert_has(e.what(), "'assumptions' must be a string"));
    }
    CHECK_THROWS_AS(test::workload_from("assumptions = \"one\"\n" + body), InputError);
    CHECK_THROWS_AS(test::workload_from("assumptions = [\" \"]\n" + body), InputError);
}

TEST_CASE("an imported AMALTHEA model's certificate lists what the import supplied, in text and JSON",
          "[certificate][amalthea]") {
    const std::string dir = test::temp_dir(), toml = dir + "/example.toml";
    REQUIRE(run_cli({"import-amalthea", source_path("cases/thesis/example.amxmi"), "--tick-time", "1", "-o", toml})
                .exit_code == 0);
    const Workload w = load_workload_file(toml);
    bool tick = false;
    for (const std::string& a : w.assumptions) tick = tick || cert_has(a, "given by --tick-time");
    CHECK(tick);
    const auto json = run_cli({"wcrt", toml, "--json"});
    REQUIRE(json.exit_code == 0);
    const Json out = Json::parse(json.out);
    REQUIRE(out.contains("assumptions"));
    bool imported = false, policy = false;
    for (const Json& a : out["assumptions"]) {
        imported = imported || (a["source"] == "import" && cert_has(a["what"].get<std::string>(), "--tick-time"));
        policy = policy || (a["source"] == "default" && cert_has(a["what"].get<std::string>(), "--policy any"));
    }
    CHECK(imported);
    CHECK(policy);
    const auto text = run_cli({"wcrt", toml, "--policy", "round-robin"});
    INFO(text.out);
    CHECK(cert_has(text.out, "\nassumptions:\n"));
    CHECK(cert_has(text.out, "given by --tick-time (import)"));
    CHECK(cert_has(text.out, "fixed to round-robin by --policy"));
}

TEST_CASE("the critical operation: a refuted bound first, then an unproven one, then the least margin",
          "[certificate]") {
    const auto row = [](int op, std::optional<Time> bound, std::optional<Time> lower, std::optional<Time> upper) {
        return MarginRow{op, bound, lower, upper, true};
    };
    CHECK(critical_operation({row(0, 10, 5, 6), row(1, 10, 8, 9), row(2, 20, 1, 2)}) == 1);  // margins 4, 1, 18
    CHECK(critical_operation({row(0, 10, 8, 9), row(1, 10, 11, 12)}) == 1);                  // refuted
    CHECK(critical_operation({row(0, 10, 8, 9), row(1, 10, 8, std::nullopt)}) == 1);         // not proven
    CHECK(critical_operation({row(0, std::nullopt, 1, 1), row(1, 100, 1, 99)}) == 1);        // no bound: last
    CHECK(critical_operation({row(0, std::nullopt, 1, 1), row(1, std::nullopt, 3, 3)}) == 1);
    MarginRow no_scenario = row(0, 10, 11, 12);
    no_scenario.charted = false;
    CHECK(critical_operation({no_scenario, row(1, 10, 1, 2)}) == 1);
    CHECK_FALSE(critical_operation({no_scenario}));
}

TEST_CASE("wcrt --svg and certify --svg chart the least-margin operation, certify one also when all is certified",
          "[certificate][svg]") {
    const std::string dir = test::temp_dir();
    const std::string file = test::write_file(dir, "margins.toml", cert_two_margins);
    const auto wcrt = run_cli({"wcrt", file, "--svg", dir + "/w.svg"});
    REQUIRE(wcrt.exit_code == 0);
    const std::string w_svg = test::slurp(dir + "/w.svg");
    CHECK(cert_has(w_svg, "witness for wide"));
    // --op still names the operation charted.
    REQUIRE(run_cli({"wcrt", file, "--op", "narrow", "--svg", dir + "/n.svg"}).exit_code == 0);
    CHECK(cert_has(test::slurp(dir + "/n.svg"), "witness for narrow"));
    const auto certify = run_cli({"certify", file, "--svg", dir + "/c.svg"});
    INFO(certify.out << certify.err);
    REQUIRE(certify.exit_code == 0);  // both certified
    const std::string c_svg = test::slurp(dir + "/c.svg");
    CHECK(cert_has(c_svg, "witness for wide"));
    CHECK(cert_has(c_svg, "deadline 12"));
    // A refuted bound is charted first, as its counterexample.
    const auto refuted = run_cli({"certify", file, "--bound", "narrow=1/2", "--svg", dir + "/r.svg"});
    REQUIRE(refuted.exit_code == 1);
    CHECK(cert_has(test::slurp(dir + "/r.svg"), "counterexample for narrow"));
}

TEST_CASE("svg-window: a window drawn, a bad one refused with exit 3 before any work", "[certificate][svg]") {
    const std::string dir = test::temp_dir();
    const std::string file = test::write_file(dir, "margins.toml", cert_two_margins);
    REQUIRE(run_cli({"wcrt", file, "--svg", dir + "/w.svg", "--svg-window", "2:8"}).exit_code == 0);
    const std::string svg = test::slurp(dir + "/w.svg");
    CHECK(cert_has(svg, ">2</text>"));  // the axis starts at the window
    CHECK_FALSE(cert_has(svg, ">0</text>"));
    // simulate takes it too, and says what part of the schedule is shown.
    REQUIRE(run_cli({"simulate", file, "--svg", dir + "/s.svg", "--svg-window", "2:8"}).exit_code == 0);
    const std::string simulated = test::slurp(dir + "/s.svg");
    CHECK(cert_has(simulated, ">2</text>"));
    CHECK_FALSE(cert_has(simulated, ">0</text>"));
    CHECK(cert_has(simulated, ">shown: 2 to 8 of the schedule, which runs from 0 to "));
    for (const std::string bad : {"5", "8:2", "2:2", "-1:3", "a:3", "1:1e99999", ""}) {
        INFO("--svg-window '" << bad << "'");
        for (const std::string command : {"wcrt", "certify", "simulate"}) {
            const auto r = run_cli({command, file, "--svg", dir + "/bad.svg", "--svg-window", bad});
            CHECK(r.exit_code == 3);
            CHECK(cert_has(r.err, "--svg-window"));
        }
    }
    const auto no_svg = run_cli({"wcrt", file, "--svg-window", "1:2"});
    CHECK(no_svg.exit_code == 3);
    CHECK(cert_has(no_svg.err, "needs --svg"));
}
