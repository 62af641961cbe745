// The tables people read: aligned by display width, one exact time notation per column, the
// time unit stated once when the workload has one, RTA scope reasons one per line.
#include <catch2/catch.hpp>

#include <fstream>
#include <random>
#include <regex>
#include <sstream>

#include "bounds/rta/rta_workload.hpp"
#include "common/utf8.hpp"
#include "report/display_width.hpp"
#include "report/time_notation.hpp"
#include "sim/simulate.hpp"
#include "support.hpp"

using namespace gpuwcrt;
using test::run_cli;
using test::source_path;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

// Terminal columns of the test's own names, independently of report/display_width: CJK
// ideographs take two, combining acute accents none, every other code point one.
std::size_t columns(const std::string& s) {
    std::size_t width = 0;
    for (std::size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        const int len = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
        char32_t c = len == 1 ? b : b & (0x7F >> len);
        for (int k = 1; k < len; ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
        i += len;
        width += (c >= 0x4E00 && c <= 0x9FFF) ? 2 : (c >= 0x0300 && c <= 0x036F) ? 0 : 1;
    }
    return width;
}

// Cells of a table row: columns are separated by at least two spaces, and no cell here holds two.
std::vector<std::string> cells(const std::string& line) {
    std::vector<std::string> out;
    const std::regex sep(" {2,}");
    std::string trimmed = std::regex_replace(line, std::regex("^ +"), "");
    for (std::sregex_token_iterator it(trimmed.begin(), trimmed.end(), sep, -1), end; it != end; ++it)
        out.push_back(*it);
    return out;
}

// The display column where each cell of a row starts and ends.
std::vector<std::pair<std::size_t, std::size_t>> cell_spans(const std::string& line) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    std::size_t from = 0;
    for (const std::string& c : cells(line)) {
        const std::size_t at = line.find(c, from);
        from = at + c.size();
        out.push_back({columns(line.substr(0, at)), columns(line.substr(0, from))});
    }
    return out;
}

std::string write_temp(const std::string& name, const std::string& text) {
    const std::string path = test::temp_dir() + "/" + name;
    std::ofstream(path) << text;
    return path;
}

// Two kernels on their own streams; names chosen for width: CJK, a 2-byte letter, a combining mark.
const std::string unicode_workload = R"(
[[kernel]]
name = "核心计算"
blocks = 2
threads = 1024
block_time = "1/3"
deadline = 1

[[kernel]]
name = "Käse"
blocks = 2
threads = 1024
block_time = 0.5
issue = 0.25

[[kernel]]
name = "cafe\u0301"
blocks = 1
threads = 512
block_time = 2
issue = 1
deadline = 1
)";

}  // namespace

TEST_CASE("display_width counts terminal columns, not bytes", "[output]") {
    CHECK(display_width("abc") == 3);
    CHECK(display_width("核心") == 4);
    CHECK(display_width("Käse") == 4);
    CHECK(display_width("cafe\xcc\x81") == 4);      // e + U+0301 COMBINING ACUTE ACCENT
    CHECK(display_width("한국") == 4);              // Hangul syllables are wide
    CHECK(display_width("\xef\xbd\xb1") == 1);      // U+FF71 halfwidth katakana: narrow
    CHECK(display_width("\xef\xbc\xa1") == 2);      // U+FF21 fullwidth A: wide
    CHECK(display_width("\xf0\x9f\x98\x80") == 2);  // U+1F600 emoji
    CHECK(display_width("a\xffz") == 3);            // an invalid byte is one column
    CHECK(display_width("\xe6\xa0") == 2);          // a truncated sequence: two invalid bytes
}

TEST_CASE("text is cut between characters as shown, an invalid byte a character of its own", "[output]") {
    using Ends = std::vector<std::size_t>;
    CHECK(utf8_ends("") == Ends{});
    CHECK(utf8_ends("a\xc3\xa9\xe6\xa0\xb8") == Ends{1, 3, 6});  // a, é, 核
    CHECK(utf8_ends("a\xffz") == Ends{1, 2, 3});
    CHECK(utf8_ends("\xe6\xa0") == Ends{1, 2});  // a truncated sequence: two invalid bytes
    CHECK(shown_utf8("\xc3\xa9", 0).code_point == 0xE9);
    CHECK(shown_utf8("\xc3\xa9", 0).length == 2);
    // Neither a surrogate nor an overlong form is text: each byte shows as U+FFFD.
    CHECK(shown_utf8("\xed\xa0\x80", 0).code_point == replacement_character);
    CHECK(shown_utf8("\xc0\x80", 0).length == 1);
    CHECK(display_width("\xc0\x80") == 2);
}

TEST_CASE("simulate aligns columns by display width with UTF-8 names", "[output]") {
    const std::string path = write_temp("unicode.toml", unicode_workload);
    const auto r = run_cli({"simulate", path});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    const auto lines = lines_of(r.out);
    REQUIRE(lines.size() == 5);  // the header, 3 operations, how the thirds were rounded
    CHECK(lines.back().rfind("times rounded to 0.000001: upper bounds up, lower bounds down", 0) == 0);
    // Left-aligned text columns start, right-aligned time columns end, where their header does.
    const auto header = cell_spans(lines[0]);
    REQUIRE(header.size() == 9);
    for (std::size_t i = 1; i + 1 < lines.size(); ++i) {
        INFO(lines[i]);
        const auto row = cell_spans(lines[i]);
        REQUIRE(row.size() == 9);
        for (int text_col : {1, 2, 8}) CHECK(row[text_col].first == header[text_col].first);
        for (int time_col : {3, 4, 5, 6, 7}) CHECK(row[time_col].second == header[time_col].second);
    }
}

TEST_CASE("with --exact every time column uses one notation and shows the exact value", "[output]") {
    // One notation: decimals with a common number of digits, a fraction only for a value that
    // has no short decimal (without --exact: test_certificate_output.cpp).
    const Workload w = test::workload_from(unicode_workload);
    const Schedule s = simulate(w, {});
    const auto r = run_cli({"simulate", write_temp("unicode.toml", unicode_workload), "--exact"});
    REQUIRE(r.exit_code == 0);
    const auto lines = lines_of(r.out);
    REQUIRE(lines.size() == w.ops.size() + 1);
    const std::regex decimal(R"(-?\d+(\.(\d+))?)"), fraction(R"(-?\d+(/\d+)?)");
    bool some_fraction_column = false, some_decimal_column = false;
    for (int col = 3; col <= 7; ++col) {  // issue, start, finish, response, deadline
        INFO("column " << col);
        int decimals = 0, fractions = 0;
        std::set<std::size_t> digits_after_point;
        for (std::size_t i = 1; i < lines.size(); ++i) {
            const std::string cell = cells(lines[i])[col];
            const int op = s.launch_order[i - 1];
            const Time expected = col == 3   ? s.ops[op].issue
                                  : col == 4 ? s.ops[op].start
                                  : col == 5 ? s.ops[op].finish
                                  : col == 6 ? s.response(op)
                                             : (w.ops[op].deadline ? *w.ops[op].deadline : Time(-1));
            if (cell == "-") {
                CHECK(!w.ops[op].deadline);
                continue;
            }
            REQUIRE(parse_time(cell));
            CHECK(*parse_time(cell) == expected);  // exact, never rounded
            std::smatch m;
            if (cell.find('/') != std::string::npos) {
                ++fractions;
                const int d = decimal_digits(expected);
                CHECK((d < 0 || d > max_fraction_digits));
            } else if (cell.find('.') != std::string::npos && std::regex_match(cell, m, decimal)) {
                ++decimals;
                digits_after_point.insert(m[2].length());
            }
        }
        CHECK(digits_after_point.size() <= 1);  // decimals share their number of digits
        some_fraction_column = some_fraction_column || fractions > 0;
        some_decimal_column = some_decimal_column || decimals > 0;
    }
    // The workload has thirds (finish) and quarters (issue): both notations occur.
    CHECK(some_fraction_column);
    CHECK(some_decimal_column);
}

TEST_CASE("notation_for and format_time: decimals while short, a fraction only where needed, never rounded",
          "[output]") {
    const TimeNotation quarters = notation_for({Time(1, 2), Time(1, 4), Time(3)});
    CHECK(quarters.fraction_digits == 2);
    CHECK(format_time(Time(1, 2), quarters) == "0.50");
    CHECK(format_time(Time(3), quarters) == "3.00");
    CHECK(format_time(Time(-1, 20), notation_for({Time(-1, 20)})) == "-0.05");
    // A third does not terminate: it alone is a fraction, the half stays a decimal.
    const TimeNotation with_third = notation_for({Time(1, 3), Time(1, 2)});
    CHECK(format_time(Time(1, 2), with_third) == "0.5");
    CHECK(format_time(Time(1, 3), with_third) == "1/3");
    // 1677721601/52428800 = 32 + 1/52428800 needs 21 digits: a fraction, and the column's other
    // values keep one digit after the point.
    const Time long_decimal(1677721601, 52428800);
    const TimeNotation n21 = notation_for({long_decimal, Time(33, 2), Time(4)});
    CHECK(n21.fraction_digits == 1);
    CHECK(format_time(long_decimal, n21) == "1677721601/52428800");
    CHECK(format_time(Time(4), n21) == "4.0");
    BigInt big = 1;
    for (int i = 0; i <= max_fraction_digits; ++i) big *= 10;
    CHECK(format_time(Time(1, big), notation_for({Time(1, big)})).find('/') != std::string::npos);  // 13 digits
    CHECK(format_time(Time(10, big), notation_for({Time(10, big)})) == "0.000000000001");           // 12
    std::mt19937 rng(11);
    for (int i = 0; i < 500; ++i) {
        std::vector<Time> column;
        for (int k = 0; k < 4; ++k)
            column.push_back(Time(static_cast<long>(rng() % 20001) - 10000, 1 + static_cast<long>(rng() % 64)));
        const TimeNotation n = notation_for(column);
        for (const Time& t : column) {
            const std::string text = format_time(t, n);
            INFO(exact_string(t) << " -> " << text);
            REQUIRE(parse_time(text));
            CHECK(*parse_time(text) == t);
            // A fraction exactly where the value has no decimal of at most 12 digits.
            const int d = decimal_digits(t);
            CHECK((text.find('/') != std::string::npos) == (d < 0 || d > max_fraction_digits));
        }
    }
}

TEST_CASE("an imported workload's tables say the unit once: times in seconds", "[output]") {
    const std::string dir = test::temp_dir();
    const std::string toml = dir + "/rta.toml";
    REQUIRE(run_cli({"import-examiner", source_path("tests/data/thesis-tx2-traces/rta.json"), "-o", toml}).exit_code ==
            0);
    REQUIRE(load_workload_file(toml).time_unit == "s");
    auto count = [](const std::string& text, const std::string& what) {
        std::size_t n = 0;
        for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
        return n;
    };
    const auto sim = run_cli({"simulate", toml, "--blocks"});
    REQUIRE(sim.exit_code == 0);
    CHECK(lines_of(sim.out).front() == "times in seconds");
    CHECK(count(sim.out, "times in") == 1);
    const auto rta = run_cli({"rta", toml});
    REQUIRE(rta.exit_code == 0);
    CHECK(count(rta.out, "times in seconds") == 1);
    std::vector<std::string> args = {"compare-trace", toml};
    for (int i = 1; i <= 4; ++i)
        args.push_back(source_path("tests/data/thesis-tx2-traces/concurrent_1st_" + std::to_string(i) + ".json"));
    const auto cmp = run_cli(args);
    REQUIRE(cmp.exit_code == 0);
    CHECK(cmp.out.rfind("times in seconds", 0) == 0);
    CHECK(count(cmp.out, "times in") == 1);
    const auto wc = run_cli({"wcrt", toml, "--timeout", "5"});
    REQUIRE(wc.exit_code <= 2);
    CHECK(count(wc.out, "times in seconds") == 1);
    // A workload without a unit claims none.
    const auto plain = run_cli({"simulate", source_path("cases/thesis/example.toml")});
    CHECK(plain.out.find("times in") == std::string::npos);
    // An unknown unit is an input error at its position.
    const auto bad = run_cli({"simulate", write_temp("u.toml",
                                                     "time_unit = \"h\"\n[[kernel]]\nname = \"K\"\n"
                                                     "blocks = 1\nthreads = 32\nblock_time = 1\n")});
    CHECK(bad.exit_code == 3);
    CHECK(bad.err.find("u.toml:1:") != std::string::npos);
    CHECK(bad.out.empty());
}

// The "  - " items of a text, each with its continuation lines ("    " indented, the item
// wrapped at 120 columns) joined back by spaces; fails a check on a longer line.
std::vector<std::string> bullet_items(const std::string& text) {
    std::vector<std::string> items;
    bool in_item = false;
    for (const std::string& line : lines_of(text)) {
        if (line.rfind("  - ", 0) == 0) {
            CHECK(display_width(line) <= 120);
            items.push_back(line.substr(4));
            in_item = true;
        } else if (in_item && line.rfind("    ", 0) == 0) {
            CHECK(display_width(line) <= 120);
            items.back() += " " + line.substr(4);
        } else {
            in_item = false;
        }
    }
    return items;
}

TEST_CASE("rta prints each scope reason on a line of its own", "[output]") {
    const std::string path = source_path("cases/amert2017/fig3.toml");
    const Workload w = load_workload_file(path);
    const RtaOutcome expected = rta(w, rta_launch_order(w, {}));
    REQUIRE(expected.reasons.size() >= 2);
    const auto r = run_cli({"rta", path});
    REQUIRE(r.exit_code == 0);
    CHECK(bullet_items(r.out) == expected.reasons);
    CHECK(r.out.find("scope: approximation (outside the thesis' assumptions):\n") != std::string::npos);
}

TEST_CASE("wcrt prints each scope reason on a line of its own, and bounds in columns of their own", "[output]") {
    // Mixed block sizes and one that does not divide the SM: two reasons.
    const std::string path = write_temp("mixed.toml",
                                        "[[kernel]]\nname = \"A\"\nblocks = 3\nthreads = 768\nblock_time = 1\n"
                                        "[[kernel]]\nname = \"B\"\nblocks = 2\nthreads = 256\nblock_time = 0.5\n");
    const Workload w = load_workload_file(path);
    const RtaOutcome expected = rta(w, rta_launch_order(w, {}));
    REQUIRE(expected.reasons.size() >= 2);
    const auto r = run_cli({"wcrt", path});
    REQUIRE(r.exit_code == 0);
    REQUIRE(r.out.find("RTA scope:") != std::string::npos);
    CHECK(bullet_items(r.out.substr(r.out.find("RTA scope:"))) == expected.reasons);  // after the assumptions
    CHECK(r.out.find("RTA scope: approximation (outside the thesis' assumptions):\n") != std::string::npos);
    CHECK(r.out.find("operation  wcrt  upper bound  status") != std::string::npos);
}
