// Every class of bad input, through the CLI: exit code 3, "file:line:column: message" on
// stderr pointing at the offending line, nothing on stdout, and no --svg file written.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "model/io/examiner_log.hpp"
#include "model/name_policy.hpp"
#include "sim/scenario.hpp"
#include "support.hpp"

namespace {

struct BadInput {
    const char* kind;
    std::string toml;
    int line, column;
    const char* phrase;
};

const std::string kernel_a = "[[kernel]]\nname = \"A\"\nblocks = 1\nthreads = 32\nblock_time = 1\n";  // lines 1-5

std::string kernel_with(const std::string& blocks, const std::string& threads, const std::string& time,
                        const std::string& extra = "") {
    return "[[kernel]]\nname = \"A\"\nblocks = " + blocks + "\nthreads = " + threads + "\nblock_time = " + time + "\n" +
           extra;
}

const std::vector<BadInput> bad_inputs = {
    {"syntax error", kernel_a + "blocks = = 2\n", 6, 10, "TOML syntax error"},
    {"unknown top-level key", "bogus = 1\n" + kernel_a, 1, 1, "unknown key 'bogus' in the file"},
    {"unknown key in [[kernel]]", kernel_a + "thread = 3\n", 6, 1, "unknown key 'thread' in [[kernel]]"},
    {"unknown key in [platform]", "[platform]\nsm = 3\n" + kernel_a, 2, 1, "unknown key 'sm' in [platform]"},
    {"missing required key", "[[kernel]]\nname = \"A\"\nthreads = 32\nblock_time = 1\n", 1, 1,
     "lacks the required key 'blocks'"},
    {"wrong type", kernel_with("\"two\"", "32", "1"), 3, 10, "'blocks' must be an integer"},
    {"zero block_time", kernel_with("1", "32", "0"), 5, 14, "'block_time' must be > 0"},
    {"negative block_time", kernel_with("1", "32", "-0.5"), 5, 14, "'block_time' must be > 0 (got -0.5)"},
    {"zero blocks", kernel_with("0", "32", "1"), 3, 10, "'blocks' must be > 0"},
    {"threads over 1024", kernel_with("1", "1025", "1"), 1, 1,
     "threads per block 1025 exceeds the per-block limit 1024"},
    {"shared memory over 48 KiB", kernel_with("1", "32", "1", "shared_mem = 49153\n"), 1, 1,
     "shared memory per block (bytes) 49153 exceeds the per-block limit 49152"},
    {"registers over 32768 per block", kernel_with("1", "1024", "1", "registers = 33\n"), 1, 1,
     "registers per block (registers x threads) 33792 exceeds the per-block limit 32768"},
    {"block fits on no SM", "[platform]\nthreads_per_sm = 512\n" + kernel_with("1", "1024", "1"), 3, 1,
     "does not fit even on an empty SM"},
    {"unknown stream", kernel_a + "stream = \"S9\"\n", 6, 10, "unknown stream 'S9'"},
    {"two NULL streams", "[[stream]]\nname = \"N1\"\nnull = true\n[[stream]]\nname = \"N2\"\nnull = true\n" + kernel_a,
     4, 1, "a second NULL stream 'N2'"},
    {"decreasing issue times",
     "[[stream]]\nname = \"S\"\n" + kernel_a + "stream = \"S\"\nissue = 2\n" +
         "[[kernel]]\nname = \"B\"\nstream = \"S\"\nblocks = 1\nthreads = 32\nblock_time = 1\nissue = 1\n",
     10, 1, "issue time of 'B' (1) is before that of 'A' (2) earlier in stream 'S'"},
    {"duplicate operation name", kernel_a + "[[copy]]\nname = \"A\"\nduration = 1\n", 6, 1,
     "operation name 'A' is used twice"},
    {"duplicate stream name", "[[stream]]\nname = \"S\"\n[[stream]]\nname = \"S\"\n" + kernel_a, 3, 1,
     "stream 'S' is declared twice"},
    {"bad time literal 1/0", kernel_with("1", "32", "\"1/0\""), 5, 14, "'1/0' divides by zero"},
    {"bad time literal abc", kernel_a + "issue = \"abc\"\n", 6, 9, "'abc' is not an exact number"},
    {"interval lo > hi", kernel_with("1", "32", "[2, 1]"), 5, 14, "interval [lo, hi] has lo > hi"},
    {"negative issue", kernel_a + "issue = -1\n", 6, 9, "'issue' must be >= 0"},
    {"issue and after_stream_idle together", kernel_a + "issue = 1\nafter_stream_idle = 1\n", 7, 21,
     "either 'issue' or 'after_stream_idle', not both"},
    {"bad priority", "[[stream]]\nname = \"S\"\npriority = 3\n" + kernel_a, 3, 12, "'priority' must be \"high\""},
    {"no operations", "title = \"nothing\"\n", 1, 1, "no [[kernel]] or [[copy]]"},
};

}  // namespace

TEST_CASE("malformed inputs: exit 3, located message, no output", "[input-errors][cli]") {
    const std::string dir = gpuwcrt::test::temp_dir();
    for (std::size_t i = 0; i < bad_inputs.size(); ++i) {
        const BadInput& b = bad_inputs[i];
        INFO("kind: " << b.kind << "\n" << b.toml);
        const std::string file = dir + "/case" + std::to_string(i) + ".toml",
                          svg = dir + "/out" + std::to_string(i) + ".svg";
        { std::ofstream(file) << b.toml; }
        const auto r = gpuwcrt::test::run_cli({"simulate", file, "--svg", svg});
        CHECK(r.exit_code == 3);
        CHECK(r.out.empty());
        CHECK_FALSE(std::filesystem::exists(svg));
        CHECK_FALSE(std::filesystem::exists(svg + ".tmp"));
        const std::string prefix = file + ":" + std::to_string(b.line) + ":" + std::to_string(b.column) + ": ";
        CHECK(r.err.rfind(prefix, 0) == 0);
        CHECK(r.err.find(b.phrase) != std::string::npos);
        INFO("stderr: " << r.err);
    }
    std::filesystem::remove_all(dir);
    CHECK(bad_inputs.size() >= 12);
}

TEST_CASE("a missing file is an input error naming the file", "[input-errors][cli]") {
    const auto r = gpuwcrt::test::run_cli({"simulate", "/nonexistent/x.toml"});
    CHECK(r.exit_code == 3);
    CHECK(r.out.empty());
    CHECK(r.err.find("/nonexistent/x.toml:") == 0);
    CHECK(r.err.find("cannot open the file") != std::string::npos);
}

TEST_CASE("a valid input with --svg writes the chart and exits 0", "[input-errors][cli]") {
    // The counterpart of the cases above: the same command line succeeds on good input.
    const std::string dir = gpuwcrt::test::temp_dir(), file = dir + "/ok.toml", svg = dir + "/ok.svg";
    { std::ofstream(file) << kernel_a; }
    const auto r = gpuwcrt::test::run_cli({"simulate", file, "--svg", svg});
    CHECK(r.exit_code == 0);
    // Every file written is announced on stderr, and nothing else is said there.
    CHECK(r.err == "gpuwcrt: wrote " + svg + " (SVG chart of the schedule)\n");
    CHECK(std::filesystem::exists(svg));
    std::filesystem::remove_all(dir);
}

namespace {

// One row of tests/data/bad-inputs/MANIFEST (its header says what the fields mean).
struct CorpusCase {
    int line = 0;  // in MANIFEST
    std::string file;
    std::vector<std::string> args;
    int exit_code = 0;
    std::string position, fragment;
};

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<CorpusCase> read_manifest(const std::string& dir) {
    std::ifstream in(dir + "/MANIFEST");
    REQUIRE(in);
    std::vector<CorpusCase> out;
    int n = 0;
    for (std::string line; std::getline(in, line);) {
        ++n;
        if (trim(line).empty() || line[0] == '#') continue;
        std::vector<std::string> field;
        for (std::size_t from = 0;;) {
            const auto bar = line.find(" | ", from);
            field.push_back(trim(line.substr(from, bar == std::string::npos ? std::string::npos : bar - from)));
            if (bar == std::string::npos) break;
            from = bar + 3;
        }
        INFO("MANIFEST line " << n << ": " << line);
        REQUIRE(field.size() == 5);
        CorpusCase c;
        c.line = n;
        c.file = dir + "/" + field[0];
        std::istringstream words(field[1]);
        for (std::string w; words >> w;)
            c.args.push_back(w == "{}" ? c.file : w[0] == '@' ? dir + "/" + w.substr(1) : w);
        c.exit_code = std::stoi(field[2]);
        c.position = field[3];
        c.fragment = field[4];
        out.push_back(std::move(c));
    }
    return out;
}

}  // namespace

TEST_CASE("the bad-input corpus: every class exits 3 with a located message and no output", "[input-errors][cli]") {
    const std::string dir = gpuwcrt::test::source_path("tests/data/bad-inputs");
    const std::vector<CorpusCase> cases = read_manifest(dir);
    std::set<std::string> files;
    for (const CorpusCase& c : cases) {
        INFO("MANIFEST line " << c.line << ": " << c.file);
        REQUIRE(std::filesystem::exists(c.file));
        files.insert(c.file);
        const auto r = gpuwcrt::test::run_cli(c.args);
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == c.exit_code);
        CHECK(r.out.empty());
        CHECK(r.err.find(c.fragment) != std::string::npos);
        std::string prefix = c.fragment;
        if (c.position == "file") prefix = c.file + ": ";
        else if (c.position != "cli") prefix = c.file + ":" + c.position + ": ";
        CHECK(r.err.rfind(prefix, 0) == 0);
        // A message quotes bad input escaped: no raw control character reaches the terminal.
        CHECK(r.err.find('\x1b') == std::string::npos);
    }
    // Every file of the corpus is a case or a helper that a case names and that is itself valid.
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        const std::string path = e.path().string(), name = e.path().filename().string();
        if (name == "MANIFEST" || files.count(path)) continue;
        INFO(name << " is not named in MANIFEST as a case");
        CHECK((name.rfind("ok-", 0) == 0 || name == "log-workload.toml"));
    }
    CHECK(cases.size() >= 40);
}

TEST_CASE("the corpus' helper files are valid input, so each case fails for its own reason", "[input-errors][cli]") {
    const std::string dir = gpuwcrt::test::source_path("tests/data/bad-inputs");
    for (const char* ok : {"ok-two-kernels.toml", "log-workload.toml"}) {
        INFO(ok);
        const auto r = gpuwcrt::test::run_cli({"simulate", dir + "/" + ok});
        CHECK(r.exit_code == 0);
        CHECK(r.err.empty());
    }
    // The same --order with valid names runs, so the corpus' --order rows test the names alone.
    CHECK(gpuwcrt::test::run_cli({"simulate", dir + "/ok-two-kernels.toml", "--order", "A,B"}).exit_code == 0);
}

TEST_CASE("values that used to be silently changed are refused, and their neighbours within the limits run",
          "[input-errors][cli]") {
    const std::string dir = gpuwcrt::test::temp_dir();
    auto run_platform = [&](const std::string& platform, const std::string& kernel_extra) {
        const std::string file = dir + "/w.toml";
        { std::ofstream(file) << "[platform]\n" << platform << "\n" << kernel_a << kernel_extra; }
        return gpuwcrt::test::run_cli({"simulate", file, "--json"});
    };
    // 2^32 + 2 used to become 2 SMs through an int cast; the limit itself is accepted and used.
    CHECK(run_platform("sms = 4294967298", "").exit_code == 3);
    const auto max_sms = run_platform("sms = 1024", "");
    CHECK(max_sms.exit_code == 0);
    CHECK(run_platform("sms = 1025", "").exit_code == 3);
    // registers x threads = 2^62 x 4 wrapped to 0 and passed the per-block check.
    CHECK(run_platform("", "registers = 4611686018427387904\n").exit_code == 3);
    const auto regs = run_platform("registers_per_sm = 1099511627776\nregisters_per_block_max = 1099511627776",
                                   "registers = 34359738368\n");  // 2^35 x 32 = 2^40: exactly the limit
    CHECK(regs.exit_code == 0);
    CHECK(run_platform("registers_per_sm = 1099511627776\nregisters_per_block_max = 1099511627776",
                       "registers = 34359738369\n")
              .exit_code == 3);
    // blocks = 10^9 is within the documented limit of 2^40 and loads unchanged; 2^40 + 1 does not.
    const auto blocks = [](const std::string& n) {
        return gpuwcrt::test::workload_from("[[kernel]]\nname = \"A\"\nblocks = " + n +
                                            "\nthreads = 1024\nblock_time = 1\n");
    };
    CHECK(blocks("1000000000").ops.at(0).blocks == 1000000000);
    CHECK(blocks("1099511627776").ops.at(0).blocks == std::int64_t{1} << 40);
    CHECK_THROWS_WITH(blocks("1099511627777"), Catch::Contains("'blocks' must be between 1 and 2^40"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("the name policy: what a name may and may not hold", "[input-errors][names]") {
    using gpuwcrt::name_problem;
    for (const char* ok : {"K1", "Kernel 2 (NULL stream)", "K3-1", "na\"me \\ q", "K \u00e9", "\u65e5\u672c", "a;b:c"})
        CHECK_FALSE(name_problem(ok).has_value());
    const std::vector<std::pair<std::string, const char*>> bad = {
        {"", "is empty"},
        {"A\tB", "U+0009"},
        {"A\x1b[0m", "U+001B"},
        {"A\x7f", "U+007F"},
        {"A\xc2\x9b", "U+009B"},      // C1 CSI
        {"A\xe2\x80\xae", "U+202E"},  // right-to-left override
        {"A\xe2\x80\xa8", "U+2028"},  // line separator
        {"A\xff", "not valid UTF-8"},
        {"A\xc0\x80", "not valid UTF-8"},      // overlong NUL
        {"A\xed\xa0\x80", "not valid UTF-8"},  // a surrogate
        {"a,b", "contains ','"},
        {"a=b", "contains '='"},
        {" a", "white space"},
        {"a\xe3\x80\x80", "white space"},  // ideographic space at the end
    };
    for (const auto& [name, why] : bad) {
        INFO(gpuwcrt::quoted_name(name));
        const auto problem = name_problem(name);
        REQUIRE(problem.has_value());
        CHECK(problem->find(why) != std::string::npos);
    }
    CHECK(gpuwcrt::quoted_name("A\x1b[0m\xe2\x80\xae\xff") == "'A\\x1b[0m\\u202e\\xff'");
}

TEST_CASE("examiner labels become names by the documented mapping, in configs and logs alike",
          "[input-errors][names]") {
    bool changed = false;
    CHECK(gpuwcrt::name_from_label("Released 3rd, could cut ahead", changed) == "Released 3rd; could cut ahead");
    CHECK(changed);
    CHECK(gpuwcrt::name_from_label(" K=1 ", changed) == "K:1");
    CHECK(gpuwcrt::name_from_label("Kernel 1", changed) == "Kernel 1");
    CHECK_FALSE(changed);
    // A log of that benchmark carries the raw label; it must match the imported name.
    const std::string log = R"({"label": "Released 3rd, could cut ahead", "times": [{"kernel_name": "GPUSpin",
        "block_count": 1, "thread_count": 256, "cuda_launch_times": [0, 0.1, 1], "block_times": [0.2, 0.7],
        "block_smids": [0]}]})";
    CHECK(gpuwcrt::read_examiner_log(log, "log.json").label == "Released 3rd; could cut ahead");
    const auto imported = gpuwcrt::test::run_cli(
        {"import-examiner", gpuwcrt::test::source_path("tests/data/examiner-configs/scenario_2.json")});
    REQUIRE(imported.exit_code == 0);
    CHECK(imported.out.find("name = \"Released 3rd; could cut ahead\"") != std::string::npos);
    // The renaming is one of the workload's assumptions, which its certificates repeat.
    CHECK(imported.out.find("\"label 'Released 3rd, could cut ahead' is named 'Released 3rd; could cut ahead'") !=
          std::string::npos);
}

TEST_CASE("an explicit launch order rejects empty names, wherever it comes from", "[input-errors][order]") {
    const gpuwcrt::Workload w = gpuwcrt::test::workload_from(kernel_a);
    CHECK_NOTHROW(gpuwcrt::launch_ranks(w, {"A"}));
    // What `--order ",,,"` must become once the command line keeps empty pieces (app/cli_options.cpp).
    CHECK_THROWS_WITH(gpuwcrt::launch_ranks(w, {"A", ""}), "gpuwcrt: --order: name 2 is empty");
    CHECK_THROWS_WITH(gpuwcrt::launch_ranks(w, {"", "", "", ""}), "gpuwcrt: --order: name 1 is empty");
    CHECK_THROWS_WITH(gpuwcrt::launch_ranks(w, {"Q"}, gpuwcrt::OrderSource::option("--launch-order")),
                      "gpuwcrt: --launch-order: unknown operation 'Q'");
}
