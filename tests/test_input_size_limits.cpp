// The size limits of names and of TOML nesting (model/input_limits.hpp): input far beyond them
// is an input error at its place, exit 3, for every command, and what is within them prints a
// bounded output. The corpus rows (tests/data/bad-inputs) hold the smallest inputs over each
// limit; these tests the huge ones that used to crash or print without end.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "model/input_limits.hpp"
#include "support.hpp"

namespace {

const std::string two_kernels =
    "[[stream]]\nname = \"S\"\n\n"
    "[[kernel]]\nname = \"A\"\nstream = \"S\"\nblocks = 1\nthreads = 32\nblock_time = 1\n\n"
    "[[kernel]]\nname = \"B\"\nstream = \"S\"\nblocks = 1\nthreads = 32\nblock_time = 1\n";

std::string with_name_of(std::size_t bytes) {
    std::string text = two_kernels;
    const std::string a = "name = \"A\"";
    text.replace(text.find(a), a.size(), "name = \"" + std::string(bytes, 'A') + "\"");
    return text;
}

const std::vector<std::vector<std::string>> every_command{{"simulate"},
                                                          {"simulate", "--json"},
                                                          {"rta"},
                                                          {"wcrt", "--timeout", "5"},
                                                          {"wcrt", "--json", "--timeout", "5"},
                                                          {"certify", "--bound", "B=10", "--timeout", "5"}};

}  // namespace

TEST_CASE("a megabyte operation name is refused at its place by every command, with a short message",
          "[input-size-limits][cli]") {
    const std::string file = gpuwcrt::test::write_file(gpuwcrt::test::temp_dir(), "w.toml", with_name_of(1 << 20));
    for (std::vector<std::string> args : every_command) {
        args.insert(args.begin() + 1, file);
        INFO(args[0] << " " << args.back());
        const auto r = gpuwcrt::test::run_cli(args);
        CHECK(r.exit_code == 3);
        CHECK(r.out.empty());
        CHECK(r.err.rfind(file + ":5:8: operation name 'AAAA", 0) == 0);
        CHECK(gpuwcrt::test::contains(r.err, "is 1048576 bytes long, more than the limit of 1024"));
        CHECK(r.err.size() < 1000);  // the name quoted by its beginning only
    }
}

TEST_CASE("a name at the length limit runs, and every table of it stays small", "[input-size-limits][cli]") {
    const std::size_t bytes = gpuwcrt::limits::max_name_bytes;
    const std::string file = gpuwcrt::test::write_file(gpuwcrt::test::temp_dir(), "w.toml", with_name_of(bytes));
    for (std::vector<std::string> args : every_command) {
        args.insert(args.begin() + 1, file);
        INFO(args[0] << " " << args.back());
        const auto r = gpuwcrt::test::run_cli(args);
        CHECK(r.exit_code == 0);
        // Two rows: tables may wrap the name over lines, never repeat it beyond a few copies.
        CHECK(r.out.size() < 40 * bytes);
        CHECK(gpuwcrt::test::contains(r.out, "B"));
    }
}

TEST_CASE("a dotted key or headers nested far beyond the limit are an input error, not a crash",
          "[input-size-limits][cli]") {
    const std::string dir = gpuwcrt::test::temp_dir();
    std::string parts = "a";
    for (int i = 1; i < 500'000; ++i) parts += ".a";
    struct Case {
        std::string name, text, position;
    };
    const std::vector<Case> cases{
        {"dotted key", parts + " = 1\n" + two_kernels, ":1:64: "},
        {"header", two_kernels + "\n[" + parts + "]\nx = 1\n", ":18:65: "},
        // A quoted key may hold dots: they nest nothing.
        {"dots in a quoted key", two_kernels + "\n[extra]\n\"" + parts + "\" = 1\n", ":18:2: "},
    };
    for (const Case& c : cases) {
        INFO(c.name);
        const std::string file = gpuwcrt::test::write_file(dir, "w.toml", c.text);
        const auto r = gpuwcrt::test::run_cli({"simulate", file});
        CHECK(r.exit_code == 3);
        CHECK(r.out.empty());
        CHECK(r.err.rfind(file + c.position, 0) == 0);
    }
    // Nesting within the limit is read (and then refused as an unknown key, a later check).
    std::string within = "a";
    for (int i = 1; i < gpuwcrt::limits::max_toml_depth - 2; ++i) within += ".a";
    const auto r = gpuwcrt::test::run_cli(
        {"simulate", gpuwcrt::test::write_file(dir, "w.toml", two_kernels + "\n[extra]\n" + within + " = 1\n")});
    CHECK(r.exit_code == 3);
    CHECK(gpuwcrt::test::contains(r.err, "unknown key 'extra'"));
}
