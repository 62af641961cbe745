#include "support.hpp"

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "encode/block/block_problem.hpp"
#include "model/generate/random_workload.hpp"
#include "model/io/write_toml.hpp"
#include "sim/simulate.hpp"
#include "sim/witness.hpp"

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

std::string write_file(const std::string& dir, const std::string& name, const std::string& text) {
    const std::string path = dir + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

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

SimultaneousCase simultaneous_kernels_file(int kernels, std::uint64_t seed) {
    RandomWorkloadSpec spec;
    spec.kernels = kernels;
    spec.streams = kernels;
    const Workload w = random_workload(spec, seed);
    SimultaneousCase c{temp_dir() + "/n" + std::to_string(kernels) + ".toml", 0};
    std::ofstream(c.file) << workload_to_toml(w);
    const BlockProblem p = make_block_problem(w);
    c.k1_upper = p.response_upper_bound(static_cast<int>(p.index_of_op(0)));
    return c;
}

// Random concrete scenarios: ties, placement, block times on the tick grid (interior points
// included), window instants.
Schedule random_scenario(const Workload& w, std::mt19937_64& rng, int grid) {
    WitnessScenario x;
    x.block_time.assign(w.ops.size(), {});
    x.issue.assign(w.ops.size(), std::nullopt);
    auto point = [&](const TimeRange& r) {
        const long step = static_cast<long>(rng() % (grid + 1));
        return r.lo + (r.hi - r.lo) * Time(step, grid);
    };
    for (std::size_t op = 0; op < w.ops.size(); ++op) {
        const Operation& o = w.ops[op];
        const std::int64_t n = o.is_kernel() ? o.blocks : 1;
        for (std::int64_t j = 0; j < n; ++j) x.block_time[op].push_back(point(o.time));
        if (o.issue.kind == IssueSpec::Kind::at) x.issue[op] = point(o.issue.at);
    }
    Scenario sc = witness_scenario(w, x);
    sc.rank.resize(w.ops.size());
    for (long& r : sc.rank) r = static_cast<long>(rng() % 8);
    sc.fixed_sm.clear();
    sc.policy = Policy::chooser;
    sc.choose = [&rng](const PlacementRequest& r) { return r.fitting[rng() % r.fitting.size()]; };
    return simulate(w, sc);
}

Policy policy_for(std::uint64_t seed) {
    switch (seed % 3) {
        case 0:
            return Policy::chooser;
        case 1:
            return Policy::most_room;
        default:
            return Policy::first_fit;
    }
}

}  // namespace gpuwcrt::test
