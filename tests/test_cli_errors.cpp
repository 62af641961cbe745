// Every command-line error, whatever the command and whichever part of the parse finds it,
// is one line on stderr in one format ("gpuwcrt: --threads: must be …" or "gpuwcrt: …"),
// exit 3, nothing on stdout — never CLI11's own text.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <regex>

#include "support.hpp"

using gpuwcrt::test::run_cli;
using gpuwcrt::test::source_path;

namespace {

const std::string example_case = source_path("cases/thesis/example.toml");
const std::string examiner_config = source_path("tests/data/thesis-tx2-traces/rta.json");

// Checks the one format; `option` is the option the message must name ("" = none).
void check_error(const std::vector<std::string>& args, const std::string& option, const std::string& fragment = "") {
    const auto r = run_cli(args);
    std::string shown;
    for (const auto& a : args) shown += a + ' ';
    INFO("gpuwcrt " << shown << "\nstderr: " << r.err << "stdout: " << r.out);
    CHECK(r.exit_code == 3);
    CHECK(r.out.empty());
    REQUIRE(!r.err.empty());
    CHECK(r.err.back() == '\n');
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);  // one line
    if (option.empty()) {
        CHECK(std::regex_search(r.err, std::regex("^gpuwcrt: ")));
    } else {
        CHECK(std::regex_search(r.err, std::regex("^gpuwcrt: --[a-z-]+: ")));
        CHECK(r.err.rfind("gpuwcrt: " + option + ": ", 0) == 0);
    }
    CHECK(r.err.find("Run with --help") == std::string::npos);  // CLI11's raw text
    if (!fragment.empty()) CHECK(r.err.find(fragment) != std::string::npos);
}

}  // namespace

TEST_CASE("an unknown option is named, for every command", "[cli]") {
    for (const std::string cmd : {"simulate", "warp", "warp-sweep", "wcrt", "certify", "rta", "import-examiner",
                                  "import-amalthea", "compare-trace"}) {
        check_error({cmd, "--no-such-option"}, "--no-such-option", "unknown option of 'gpuwcrt " + cmd + "'");
        check_error({cmd, "--no-such-option=3"}, "--no-such-option");
    }
    check_error({"simulate", example_case, "--ordr", "t1"}, "--ordr");
    check_error({"--no-such-option"}, "--no-such-option");
}

TEST_CASE("an option without its value is named, for every command", "[cli]") {
    check_error({"simulate", example_case, "--order"}, "--order", "needs a value");
    check_error({"rta", example_case, "--order"}, "--order", "needs a value");
    check_error({"warp", "--threads"}, "--threads", "needs a value");
    check_error({"warp-sweep", "--threads"}, "--threads");
    check_error({"wcrt", example_case, "--timeout"}, "--timeout", "needs a value");
    check_error({"certify", example_case, "--bound"}, "--bound");
    check_error({"import-examiner", examiner_config, "--launch-order"}, "--launch-order");
    check_error({"compare-trace", example_case, "x.json", "--issue"}, "--issue");
}

TEST_CASE("a value of the wrong type is named with what was given", "[cli]") {
    check_error({"warp", "--threads", "abc"}, "--threads", "got 'abc'");
    check_error({"warp", "--threads", "64", "--rep", "1.5"}, "--rep", "got '1.5'");
    check_error({"wcrt", example_case, "--timeout", "abc"}, "--timeout", "got abc");
    check_error({"certify", example_case, "--timeout", "abc"}, "--timeout", "got abc");
    check_error({"import-examiner", examiner_config, "--copy-bandwidth", "fast"}, "--copy-bandwidth", "got 'fast'");
    check_error({"simulate", example_case, "--json=maybe"}, "--json", "takes no value");
}

TEST_CASE("integer options are plain decimal within 64 bits: no octal, hex or silent saturation", "[cli]") {
    check_error({"warp", "--threads", "99999999999999999999999"}, "--threads", "must be at most");
    check_error({"warp", "--threads", "0x40"}, "--threads", "got '0x40'");
    check_error({"warp", "--threads", " 64"}, "--threads");
    // A leading zero is not octal: 010 is ten threads, as written.
    const auto r = run_cli({"warp", "--threads", "010", "--engine", "explicit", "--json"});
    INFO(r.err);
    REQUIRE(r.exit_code != 3);
    CHECK(r.out.find("\"threads\": 10") != std::string::npos);
}

TEST_CASE("a value outside an option's set lists the allowed ones", "[cli]") {
    check_error({"simulate", example_case, "--policy", "best"}, "--policy",
                "must be one of most-room, round-robin, first-fit, got 'best'");
    check_error({"wcrt", example_case, "--engine", "magic"}, "--engine", "got 'magic'");
    check_error({"certify", example_case, "--policy", "best"}, "--policy", "got 'best'");
    check_error({"compare-trace", example_case, "x.json", "--issue", "during"}, "--issue",
                "must be one of before, after, got 'during'");
}

TEST_CASE("missing and extra arguments, unknown commands and repeated options", "[cli]") {
    check_error({}, "", "missing command");
    check_error({"simulat"}, "", "'simulat' is not a command");
    for (const std::string cmd :
         {"simulate", "wcrt", "certify", "rta", "import-examiner", "import-amalthea", "compare-trace"})
        check_error({cmd}, "", "gpuwcrt: " + cmd + ": missing argument");
    check_error({"simulate", example_case, "extra.toml"}, "", "unexpected argument 'extra.toml'");
    check_error({"simulate", example_case, "--order", "t1", "--order", "t2"}, "--order", "give it once");
}

TEST_CASE("arguments are echoed without control characters", "[cli]") {
    const auto r = run_cli({"simulate", example_case, "--policy", "\x1b[31mred"});
    CHECK(r.exit_code == 3);
    CHECK(r.err.find('\x1b') == std::string::npos);
    CHECK(r.err.find("\\x1b[31mred") != std::string::npos);
}

TEST_CASE("options --order and --launch-order: empty and repeated names are input errors naming the option", "[cli]") {
    for (const std::string cmd : {"simulate", "rta"}) {
        check_error({cmd, example_case, "--order", ""}, "--order");
        check_error({cmd, example_case, "--order", ",,,"}, "--order", "is empty");
        check_error({cmd, example_case, "--order", "t1,,t2"}, "--order", "name 2 of 't1,,t2' is empty");
        check_error({cmd, example_case, "--order", " , t1"}, "--order", "name 1");
        check_error({cmd, example_case, "--order", "t1,t1"}, "--order", "twice");
    }
    check_error({"import-examiner", examiner_config, "--launch-order", ""}, "--launch-order");
    check_error({"import-examiner", examiner_config, "--launch-order", "Kernel 1,,Kernel 2"}, "--launch-order",
                "is empty");
    check_error({"import-examiner", examiner_config, "--launch-order", "Kernel 1, Kernel 1"}, "--launch-order",
                "twice");
    check_error({"import-examiner", examiner_config, "--launch-order", "Kernel 9"}, "--launch-order");
    // Blanks around names are not part of them: this order is valid.
    const auto ok = run_cli({"simulate", example_case, "--order", " t2 , t3,t4 ,t1 "});
    CHECK(ok.exit_code == 0);
}

TEST_CASE("the option --help still prints CLI11's help and exits 0", "[cli]") {
    for (const auto& args : {std::vector<std::string>{"--help"}, {"simulate", "--help"}}) {
        const auto r = run_cli(args);
        CHECK(r.exit_code == 0);
        CHECK(r.out.find("Usage:") != std::string::npos);
    }
}

TEST_CASE("the option --version prints the project version from CMake and the Z3 version", "[cli]") {
    std::ifstream cmake(source_path("CMakeLists.txt"));
    const std::string text{std::istreambuf_iterator<char>(cmake), {}};
    std::smatch m;
    REQUIRE(std::regex_search(text, m, std::regex(R"(project\(gpuwcrt VERSION ([0-9.]+))")));
    const auto r = run_cli({"--version"});
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK(std::regex_match(r.out, std::regex("gpuwcrt " + std::regex_replace(m[1].str(), std::regex("\\."), "\\.") +
                                             "\nZ3 [0-9]+\\.[0-9]+\\.[0-9]+(\\.[0-9]+)?\n")));
}
