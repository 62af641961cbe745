#include "support.hpp"

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace gpuwcrt::test {
namespace {

std::string quote(const std::string& s) {
    std::string q(1, '\'');
    for (char c : s) {
        if (c == '\'') q.append("'\\''");
        else q.push_back(c);
    }
    q.push_back('\'');
    return q;
}

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

std::string source_path(const std::string& relative) { return std::string(GPUWCRT_SOURCE_DIR) + "/" + relative; }

std::string temp_dir() {
    char tmpl[] = "/tmp/gpuwcrt-test-XXXXXX";
    if (!mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
    return tmpl;
}

CliRun run_cli(const std::vector<std::string>& args, const std::string& stdin_text) {
    const std::string dir = temp_dir();
    const std::string in = dir + "/in", out = dir + "/out", err = dir + "/err";
    std::ofstream(in) << stdin_text;
    std::string cmd = quote(GPUWCRT_BINARY);
    for (const auto& a : args) cmd.append(" ").append(quote(a));
    cmd.append(" <").append(quote(in)).append(" >").append(quote(out)).append(" 2>").append(quote(err));
    int status = std::system(cmd.c_str());
    CliRun r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    std::system(("rm -rf " + quote(dir)).c_str());
    return r;
}

std::vector<std::string> workload_case_files() {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::recursive_directory_iterator(source_path("cases")))
        if (e.path().extension() == ".toml" && e.path().parent_path().filename() != "raravi2010")
            out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

Workload workload_from(const std::string& toml) { return load_workload_text(toml, "test.toml"); }

}  // namespace gpuwcrt::test
