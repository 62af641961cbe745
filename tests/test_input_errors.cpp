// Every class of bad input, through the CLI: exit code 3, "file:line:column: message" on
// stderr pointing at the offending line, nothing on stdout, and no --svg file written.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

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
    return "[[kernel]]\nname = \"A\"\nblocks = " + blocks + "\nthreads = " + threads + "\nblock_time = " + time +
           "\n" + extra;
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
    {"threads over 1024", kernel_with("1", "1025", "1"), 1, 1, "threads per block 1025 exceeds the per-block limit 1024"},
    {"shared memory over 48 KiB", kernel_with("1", "32", "1", "shared_mem = 49153\n"), 1, 1,
     "shared memory per block (bytes) 49153 exceeds the per-block limit 49152"},
    {"registers over 32768 per block", kernel_with("1", "1024", "1", "registers = 33\n"), 1, 1,
     "registers per block (registers x threads) 33792 exceeds the per-block limit 32768"},
    {"block fits on no SM", "[platform]\nthreads_per_sm = 512\n" + kernel_with("1", "1024", "1"), 3, 1,
     "does not fit even on an empty SM"},
    {"unknown stream", kernel_a + "stream = \"S9\"\n", 6, 10, "unknown stream 'S9'"},
    {"two NULL streams", "[[stream]]\nname = \"N1\"\nnull = true\n[[stream]]\nname = \"N2\"\nnull = true\n" + kernel_a, 4, 1,
     "a second NULL stream 'N2'"},
    {"decreasing issue times", "[[stream]]\nname = \"S\"\n" + kernel_a + "stream = \"S\"\nissue = 2\n" +
                                   "[[kernel]]\nname = \"B\"\nstream = \"S\"\nblocks = 1\nthreads = 32\nblock_time = 1\nissue = 1\n",
     10, 1, "issue time of 'B' (1) is before that of 'A' (2) earlier in stream 'S'"},
    {"duplicate operation name", kernel_a + "[[copy]]\nname = \"A\"\nduration = 1\n", 6, 1, "operation name 'A' is used twice"},
    {"duplicate stream name", "[[stream]]\nname = \"S\"\n[[stream]]\nname = \"S\"\n" + kernel_a, 3, 1,
     "stream 'S' is declared twice"},
    {"bad time literal 1/0", kernel_with("1", "32", "\"1/0\""), 5, 14, "'1/0' is not an exact number"},
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
        const std::string file = dir + "/case" + std::to_string(i) + ".toml", svg = dir + "/out" + std::to_string(i) + ".svg";
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
    CHECK(r.err.empty());
    CHECK(std::filesystem::exists(svg));
    std::filesystem::remove_all(dir);
}
