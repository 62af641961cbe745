// What the outputs say beyond the numbers: every --json opens with the run's context
// and validates against its schema in docs/schema/; --csv carries exactly the JSON's values;
// deadlines are judged only from proven bounds; long lists stay out of the tables; every file
// written is announced; a misspelt option gets a suggestion.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "support.hpp"

using gpuwcrt::test::run_cli;
using gpuwcrt::test::source_path;
using json = nlohmann::ordered_json;

namespace {

const std::string example_case_path = source_path("cases/thesis/example.toml");

// Validates `text` with tests/validate_json.py against docs/schema/SCHEMA.json; false (and a
// warning) when python3-jsonschema is missing, so the caller can skip.
bool validate(const std::string& schema, const std::string& text) {
    const auto [code, messages] = gpuwcrt::test::validate_json_text(schema, text);
    if (code == 77) {
        WARN("skipped: " << messages);
        return false;
    }
    INFO(schema << ": " << messages);
    CHECK(code == 0);
    return true;
}

// RFC 4180 reader, independent of report/csv: fields split at commas outside quotes, "" is a
// quote inside a quoted field.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
    std::vector<std::vector<std::string>> rows(1, std::vector<std::string>(1));
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') rows.back().back() += '"', ++i;
            else if (c == '"') quoted = false;
            else rows.back().back() += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            rows.back().emplace_back();
        } else if (c == '\n') {
            rows.emplace_back(1);
        } else {
            rows.back().back() += c;
        }
    }
    if (rows.back().size() == 1 && rows.back()[0].empty()) rows.pop_back();
    return rows;
}

// The CSV cell a JSON value must appear as: strings as they are, null empty, others as JSON.
std::string cell_of(const json& v) {
    if (v.is_null()) return "";
    return v.is_string() ? v.get<std::string>() : v.dump();
}

// A CSV cell without --exact: the JSON's value, or, for a time, its decimal within 0.000001
// (rounded to 6 digits after the point, docs/decisions/0026-decimal-output.md).
bool rounded_cell(const std::string& cell, const std::string& exact) {
    if (cell == exact) return true;
    const std::optional<gpuwcrt::Time> c = gpuwcrt::parse_time(cell), e = gpuwcrt::parse_time(exact);
    return c && e && cell.find('/') == std::string::npos && abs(*c - *e) < gpuwcrt::Time(1, 1000000);
}

// Every CSV row is the JSON operation at the same index, column by column ("operation" is
// "name"), and the CSV has a row for every operation: with --exact the JSON's exact values,
// without it the same values with times as rounded decimals.
void check_round_trip(const std::vector<std::string>& args, const std::string& list_key) {
    std::vector<std::string> with_json = args, with_csv = args;
    with_json.push_back("--json");
    with_csv.push_back("--csv");
    std::vector<std::string> with_exact_csv = with_csv;
    with_exact_csv.push_back("--exact");
    const auto j = run_cli(with_json), c = run_cli(with_exact_csv), rounded = run_cli(with_csv);
    INFO(args[0] << ": " << j.err << c.err);
    REQUIRE(j.exit_code == c.exit_code);
    const json ops = json::parse(j.out)[list_key];
    const auto rows = parse_csv(c.out);
    REQUIRE(rows.size() == ops.size() + 1);
    const std::vector<std::string>& header = rows[0];
    REQUIRE(header.size() >= 3);
    CHECK(header[0] == "operation");
    CHECK(header[1] == "kind");
    CHECK(header[2] == "stream");
    CHECK(std::find(header.begin(), header.end(), "deadline_met") != header.end());
    for (std::size_t r = 1; r < rows.size(); ++r) {
        REQUIRE(rows[r].size() == header.size());
        for (std::size_t k = 0; k < header.size(); ++k) {
            const std::string key = header[k] == "operation" ? "name" : header[k];
            INFO("row " << r << " column " << header[k]);
            // A key the JSON leaves out (no counterexample: no "response") is an empty cell.
            CHECK(rows[r][k] == (ops[r - 1].contains(key) ? cell_of(ops[r - 1][key]) : ""));
        }
    }
    const auto rounded_rows = parse_csv(rounded.out);
    REQUIRE(rounded_rows.size() == rows.size());
    for (std::size_t r = 0; r < rows.size(); ++r) {
        REQUIRE(rounded_rows[r].size() == rows[r].size());
        for (std::size_t k = 0; k < rows[r].size(); ++k) {
            INFO("row " << r << " column " << rows[0][k] << ": " << rounded_rows[r][k] << " for " << rows[r][k]);
            CHECK(rounded_cell(rounded_rows[r][k], rows[r][k]));
        }
    }
}

std::string version_of_binary() {
    const auto v = run_cli({"--version"});
    return std::regex_replace(v.out.substr(0, v.out.find('\n')), std::regex("^gpuwcrt "), "");
}

// One kernel of 2 blocks of 512 threads and block time 4: both blocks run at once on the TX2
// (2 SMs x 2048 threads), so every scenario responds in exactly 4.
std::string one_kernel(const std::string& deadline) {
    return "[[kernel]]\nname = \"k\"\nblocks = 2\nthreads = 512\nblock_time = 4\ndeadline = " + deadline + "\n";
}

}  // namespace

TEST_CASE("every command's --json opens with its context and validates against its schema", "[outputs][slow]") {
    const std::string dir = gpuwcrt::test::temp_dir();
    const std::string imported = dir + "/rta.toml";
    REQUIRE(run_cli({"import-examiner", source_path("tests/data/thesis-tx2-traces/rta.json"), "-o", imported,
                     "--launch-order", "Kernel 2, Kernel 3, Kernel 4, Kernel 1"})
                .exit_code == 0);
    std::vector<std::string> logs{"compare-trace", imported};
    for (int i = 1; i <= 4; ++i)
        logs.push_back(source_path("tests/data/thesis-tx2-traces/concurrent_1st_" + std::to_string(i) + ".json"));
    logs.push_back("--json");
    const std::vector<std::pair<std::string, std::vector<std::string>>> runs{
        {"simulate", {"simulate", example_case_path, "--json"}},
        {"rta", {"rta", example_case_path, "--json"}},
        {"wcrt", {"wcrt", example_case_path, "--json", "--timeout", "20"}},
        {"certify", {"certify", example_case_path, "--json", "--timeout", "20"}},
        {"certify", {"certify", example_case_path, "--json", "--bound", "t4=10", "--timeout", "20"}},
        {"certify", {"certify", source_path("cases/cpu/offload_refuted.toml"), "--json"}},
        {"rta-check", {"rta-check", example_case_path, "--json", "--timeout", "20"}},
        {"rta-falsify", {"rta-falsify", "--reason", "copies", "--kernels", "2", "--blocks", "1", "--json"}},
        {"compare-trace", logs},
        {"warp", {"warp", "--threads", "64", "--rep", "1", "--json"}},
        {"warp", {"warp", "--threads", "16", "--rep", "2", "--json"}},
    };
    const std::string version = version_of_binary();
    REQUIRE(std::regex_match(version, std::regex("[0-9]+(\\.[0-9]+)*")));
    for (const auto& [command, args] : runs) {
        const auto r = run_cli(args);
        INFO("gpuwcrt " << command << ": " << r.err);
        REQUIRE(r.exit_code <= 2);
        const json out = json::parse(r.out);
        const std::vector<std::string> first{out.begin().key(), std::next(out.begin()).key()};
        CHECK(first == std::vector<std::string>{"tool", "command"});  // the context comes first
        CHECK(out["tool"]["name"] == "gpuwcrt");
        CHECK(out["tool"]["version"] == version);
        CHECK(out["command"] == command);
        CHECK(out["options"].is_object());
        if (command == "compare-trace") {
            CHECK(out["input"] == imported);
            CHECK(out["time_unit"] == "s");
        } else if (command == "warp") {
            CHECK(out["time_unit"] == "cycles");
        } else if (command != "rta-falsify") {
            CHECK(out["input"] == args[1]);
            if (args[1] == example_case_path) CHECK(out["time_unit"].is_null());  // example.toml states no unit
        }
        if (!validate(command, r.out)) return;
    }
}

TEST_CASE("a schema rejects an output that breaks it", "[outputs]") {
    const auto r = run_cli({"simulate", example_case_path, "--json"});
    REQUIRE(r.exit_code == 0);
    json broken = json::parse(r.out);
    broken["operations"][0]["finish"] = 12.5;  // a float, not an exact time string
    const std::string dir = gpuwcrt::test::temp_dir();
    const std::string file = gpuwcrt::test::write_file(dir, "broken.json", broken.dump());
    const std::string cmd = "python3 '" + source_path("tests/validate_json.py") + "' '" +
                            source_path("docs/schema/simulate.json") + "' '" + file + "' >/dev/null 2>&1";
    const int status = std::system(cmd.c_str());
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (code == 77) {
        WARN("skipped: python3-jsonschema is missing");
        return;
    }
    CHECK(code == 1);
}

TEST_CASE("csv output has a header and one row per operation with the JSON's values, exact with --exact", "[outputs]") {
    check_round_trip({"simulate", example_case_path}, "operations");
    check_round_trip({"rta", example_case_path}, "operations");
    check_round_trip({"wcrt", example_case_path, "--timeout", "20"}, "operations");
    check_round_trip({"certify", example_case_path, "--timeout", "20"}, "operations");
    check_round_trip({"rta-check", example_case_path, "--timeout", "20"}, "kernels");
    // Names with quotes (names cannot hold commas) are quoted as RFC 4180 says and read back whole.
    const std::string dir = gpuwcrt::test::temp_dir();
    const std::string file = gpuwcrt::test::write_file(dir, "odd.toml",
                                                       "[[stream]]\nname = 'cam \"front\"'\n[[kernel]]\nname = 'a\"b'\n"
                                                       "stream = 'cam \"front\"'\nblocks = 1\nthreads = 32\n"
                                                       "block_time = \"1/3\"\n");
    const auto c = run_cli({"simulate", file, "--csv"});
    REQUIRE(c.exit_code == 0);
    CHECK(c.out.find("\"a\"\"b\",kernel,\"cam \"\"front\"\"\"") != std::string::npos);
    const auto rows = parse_csv(c.out);
    REQUIRE(rows.size() == 2);
    CHECK(rows[1][0] == "a\"b");
    CHECK(rows[1][2] == "cam \"front\"");
    CHECK(rows[1][6] == "0.333333");  // response: a decimal, to the nearest 0.000001
    CHECK(parse_csv(run_cli({"simulate", file, "--csv", "--exact"}).out)[1][6] == "1/3");  // as in the JSON
    check_round_trip({"simulate", file}, "operations");
}

TEST_CASE("wcrt judges a deadline only from its proven bounds", "[outputs]") {
    // one_kernel: every scenario responds in 4 (derivation above), so the WCRT is 4.
    const std::string dir = gpuwcrt::test::temp_dir();
    for (const auto& [deadline, met] : std::vector<std::pair<std::string, json>>{{"4", true}, {"3", false}}) {
        const std::string file = gpuwcrt::test::write_file(dir, "k" + deadline + ".toml", one_kernel(deadline));
        const auto r = run_cli({"wcrt", file, "--json"});
        REQUIRE(r.exit_code == 0);
        const json op = json::parse(r.out)["operations"][0];
        CHECK(op["deadline"] == deadline);
        CHECK(op["deadline_met"] == met);
        const auto c = run_cli({"certify", file, "--json"});
        CHECK(json::parse(c.out)["operations"][0]["deadline_met"] == met);
        CHECK(json::parse(run_cli({"simulate", file, "--json"}).out)["operations"][0]["deadline_met"] == met);
    }
    // No deadline: null, never false.
    const std::string none = gpuwcrt::test::write_file(
        dir, "none.toml", "[[kernel]]\nname = \"k\"\nblocks = 2\nthreads = 512\nblock_time = 4\n");
    const json op = json::parse(run_cli({"wcrt", none, "--json"}).out)["operations"][0];
    CHECK(op["deadline"].is_null());
    CHECK(op["deadline_met"].is_null());
}

TEST_CASE("rta outside its scope labels its met column as a prediction and claims no deadline_met", "[outputs]") {
    // Two kernels in one stream: outside the thesis' assumptions (several operations per stream).
    const std::string dir = gpuwcrt::test::temp_dir();
    const std::string file = gpuwcrt::test::write_file(
        dir, "stream.toml",
        "[[stream]]\nname = \"s\"\n[[kernel]]\nname = \"a\"\nstream = \"s\"\nblocks = 1\nthreads = 512\nblock_time = "
        "1\ndeadline = 5\n"
        "[[kernel]]\nname = \"b\"\nstream = \"s\"\nblocks = 1\nthreads = 512\nblock_time = 1\ndeadline = 5\n");
    const auto text = run_cli({"rta", file});
    REQUIRE(text.exit_code == 0);
    CHECK(text.out.find("scope: approximation") != std::string::npos);
    CHECK(text.out.find("rta met?") != std::string::npos);
    CHECK(text.out.find("prediction, not a verdict") != std::string::npos);
    const json out = json::parse(run_cli({"rta", file, "--json"}).out);
    for (const json& op : out["operations"]) {
        CHECK(op["deadline_met"].is_null());
        CHECK(op["meets_deadline"].is_boolean());
    }
    const auto exact = run_cli({"rta", example_case_path});
    CHECK(exact.out.find("rta met?") == std::string::npos);
    const json exact_json = json::parse(run_cli({"rta", example_case_path, "--json"}).out);
    for (const json& op : exact_json["operations"]) CHECK(op["deadline_met"] == op["meets_deadline"]);
}

TEST_CASE("tables shorten long lists unless --wide, the JSON keeps them whole", "[outputs]") {
    // 12 single-block kernels issued together, each in its own stream, and a deadline below
    // the last one's response: certify refutes it with a 12-operation counterexample.
    std::string toml;
    for (int i = 1; i <= 12; ++i)
        toml += "[[kernel]]\nname = \"layer_" + std::to_string(i) +
                "\"\nblocks = 40\nthreads = 1024\nblock_time = 1\n" + (i == 1 ? "deadline = 1\n" : "");
    const std::string dir = gpuwcrt::test::temp_dir();
    const std::string file = gpuwcrt::test::write_file(dir, "many.toml", toml);
    const auto r = run_cli({"certify", file, "--engine", "exact", "--policy", "first-fit"});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 1);
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);)
        CHECK(std::regex_replace(line, std::regex("…"), ".").size() <= 130);  // columns
    CHECK(r.out.find("(12 ops)") != std::string::npos);
    CHECK(r.out.find("SMs: --wide") != std::string::npos);
    const auto wide = run_cli({"certify", file, "--engine", "exact", "--policy", "first-fit", "--wide"});
    CHECK(wide.out.find("layer_1=[") != std::string::npos);  // every block's SM
    const json j = json::parse(run_cli({"certify", file, "--engine", "exact", "--policy", "first-fit", "--json"}).out);
    CHECK(j["operations"][0]["counterexample"]["order"].size() == 12);
    CHECK(j["operations"][0]["counterexample"]["sm"]["layer_1"].size() == 40);
}

TEST_CASE("every file written is announced on stderr and a file not written says why", "[outputs]") {
    const std::string dir = gpuwcrt::test::temp_dir();
    const auto s = run_cli({"simulate", example_case_path, "--svg", dir + "/s.svg"});
    REQUIRE(s.exit_code == 0);
    CHECK(s.err.find("gpuwcrt: wrote " + dir + "/s.svg (SVG chart of the schedule)") != std::string::npos);
    CHECK(s.out.find("wrote") == std::string::npos);  // stdout stays the table
    // Every deadline of the example_case_path holds with a bound of 100: nothing refuted, so no
    // counterexample is written, but the chart shows the critical operation's witness.
    const auto c = run_cli({"certify", example_case_path, "--only-bounds", "--bound", "t1=100", "--svg", dir + "/c.svg",
                            "--counterexample", dir + "/c.toml"});
    REQUIRE(c.exit_code == 0);
    CHECK(c.err.find("no deadline refuted: no counterexample, nothing written to " + dir + "/c.toml") !=
          std::string::npos);
    CHECK(c.err.find("gpuwcrt: wrote " + dir + "/c.svg (SVG chart of t1's witness)") != std::string::npos);
    std::ifstream none(dir + "/c.toml");
    CHECK(!none.good());
    const auto w = run_cli({"wcrt", example_case_path, "--op", "t4", "--witness", dir + "/w.toml"});
    REQUIRE(w.exit_code == 0);
    CHECK(w.err.find("gpuwcrt: wrote " + dir + "/w.toml (workload TOML of t4's witness)") != std::string::npos);
}

TEST_CASE("a misspelt option gets a suggestion from the command's own options", "[outputs]") {
    const auto t = run_cli({"wcrt", example_case_path, "--timout", "3"});
    CHECK(t.exit_code == 3);
    CHECK(t.err.find("did you mean --timeout?") != std::string::npos);
    const auto c = run_cli({"certify", example_case_path, "--witness", "x.toml"});
    CHECK(c.exit_code == 3);
    CHECK(c.err.find("did you mean --counterexample?") != std::string::npos);
    const auto far = run_cli({"simulate", example_case_path, "--no-such-option"});
    CHECK(far.exit_code == 3);
    CHECK(far.err.find("did you mean") == std::string::npos);
}

TEST_CASE("warp prints its interleavings only on --schedule, for every engine", "[outputs]") {
    // TR: 16 threads, rep 2 refutes FT by one cycle (docs/reference/warp.md); the schedule is opt-in.
    const auto quiet = run_cli({"warp", "--threads", "16", "--rep", "2"});
    CHECK(quiet.exit_code == 1);
    CHECK(quiet.out.find("interleaving (makespan") == std::string::npos);
    CHECK(quiet.out.find("--schedule prints") != std::string::npos);
    const auto shown = run_cli({"warp", "--threads", "16", "--rep", "2", "--schedule"});
    CHECK(shown.out.find("worst-case interleaving (makespan") != std::string::npos);
    // The bounds engine refutes FT with a 39-cycle schedule without the exact worst case.
    const auto bounds =
        run_cli({"warp", "--threads", "32", "--rep", "8", "--fairness", "none", "--engine", "bounds", "--schedule"});
    CHECK(bounds.exit_code == 1);
    CHECK(bounds.out.find("worst-case interleaving (makespan 39, a lower bound on the worst case)") !=
          std::string::npos);
}
