// A short run of the mutation fuzzer (tools/fuzz/) inside ctest: two hundred seeded mutants
// of the bundled cases and examiner configs through simulate, rta, wcrt --timeout 1 and
// import-examiner must give no signal, no exit 4, no run over its wall-clock limit and no
// output left behind by an input error. The long campaign is tools/fuzz/run.sh.
#include <sys/wait.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "support.hpp"

using gpuwcrt::test::source_path;
using gpuwcrt::test::temp_dir;

namespace {

struct Exec {
    int exit_code = -1;
    std::string out;
};

std::string quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

Exec run_fuzzer(const std::vector<std::string>& args) {
    const std::string dir = temp_dir();
    std::string cmd = quote(GPUWCRT_FUZZ_CLI);
    for (const auto& a : args) cmd.append(" ").append(quote(a));
    cmd.append(" >").append(quote(dir + "/out")).append(" 2>&1");
    const int status = std::system(cmd.c_str());
    std::ifstream in(dir + "/out");
    Exec e{WIFEXITED(status) ? WEXITSTATUS(status) : -1, {std::istreambuf_iterator<char>(in), {}}};
    std::filesystem::remove_all(dir);
    return e;
}

std::string last_line(const std::string& s) {
    const std::size_t end = s.find_last_not_of('\n');
    if (end == std::string::npos) return "";
    const std::size_t begin = s.rfind('\n', end);
    return s.substr(begin == std::string::npos ? 0 : begin + 1, end - (begin == std::string::npos ? 0 : begin + 1) + 1);
}

}  // namespace

TEST_CASE("fuzz smoke: 200 seeded mutants, no signal, no exit 4, no overrun", "[fuzz][slow]") {
    const std::string out_dir = temp_dir();
    const Exec e = run_fuzzer({GPUWCRT_BINARY, GPUWCRT_SOURCE_DIR, "200", "20261123", "5", out_dir});
    INFO(e.out);  // the summary: failure classes with their reproducers
    CHECK(last_line(e.out) == "fuzz: 200 runs, 0 failures");
    CHECK(e.exit_code == 0);
    std::filesystem::remove_all(out_dir);
}

TEST_CASE("fuzz driver: a failing binary is reported with a reproducer and exit 1", "[fuzz]") {
    // A stand-in for gpuwcrt that crashes on every input: the driver must notice.
    const std::string dir = temp_dir();
    const std::string fake = dir + "/crashing-gpuwcrt";
    std::ofstream(fake) << "#!/bin/sh\nkill -SEGV $$\n";
    std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
    const Exec e = run_fuzzer({fake, GPUWCRT_SOURCE_DIR, "12", "1", "5", dir + "/out"});
    INFO(e.out);
    CHECK(e.exit_code == 1);
    CHECK(last_line(e.out) == "fuzz: 12 runs, 12 failures");
    CHECK(e.out.find("signal 11") != std::string::npos);
    CHECK(std::filesystem::exists(dir + "/out/f001-simulate-1/command.sh"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("fuzz driver: bad arguments are a usage error, exit 3", "[fuzz]") {
    CHECK(run_fuzzer({GPUWCRT_BINARY, GPUWCRT_SOURCE_DIR, "0", "1", "5", temp_dir()}).exit_code == 3);
    CHECK(run_fuzzer({GPUWCRT_BINARY, GPUWCRT_SOURCE_DIR, "10", "1", "5", temp_dir(), "--jobs", "x"}).exit_code == 3);
    CHECK(
        run_fuzzer({GPUWCRT_BINARY, GPUWCRT_SOURCE_DIR, "10", "1", "5", temp_dir(), "--commands", "nope"}).exit_code ==
        3);
}
