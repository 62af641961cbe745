#include "support.hpp"

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "bounds/interference/interference.hpp"
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

}  // namespace

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

std::size_t occurrences(const std::string& text, const std::string& part) {
    std::size_t n = 0;
    for (std::size_t p = text.find(part); p != std::string::npos; p = text.find(part, p + 1)) ++n;
    return n;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Built one step at a time: GCC 12 warns (falsely, inside Boost) about Time(num, den).
Time fraction(int num, int den) {
    Time t = num;
    t /= den;
    return t;
}

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
    SimultaneousCase c{temp_dir() + "/n" + std::to_string(kernels) + ".toml", 0, 0};
    std::ofstream(c.file) << workload_to_toml(w);
    const BlockProblem p = make_block_problem(w);
    c.k1_upper = p.response_upper_bound(static_cast<int>(p.index_of_op(0)));
    c.k1_proven = std::min(c.k1_upper, interference_bounds(w, Budget{}).response[0].value_or(c.k1_upper));
    return c;
}

// Random concrete scenarios: ties, placement, block times on the tick grid (interior points
// included), window instants.
Schedule random_scenario(const Workload& w, std::mt19937_64& rng, int grid, Policy policy) {
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
    sc.policy = policy;
    if (policy == Policy::chooser)
        sc.choose = [&rng](const PlacementRequest& r) { return r.fitting[rng() % r.fitting.size()]; };
    return simulate(w, sc);
}

RandomWorkloadSpec ranges_spec(std::uint64_t seed) {
    RandomWorkloadSpec s;
    s.kernels = 2 + static_cast<int>(seed % 3);        // 2..4 operations
    s.streams = 1 + static_cast<int>((seed / 3) % 3);  // over 1..3 streams
    s.threads = {256, 512, 768, 1024};
    s.shared_kib = {0, 32, 48};
    s.max_blocks = 2;
    s.max_block_time = 4;
    s.block_time_denominator = 2;  // intervals [C, C + 1/2 or 1]: 2 or 3 grid values, as windows
    s.staggered_issue = (seed / 5) % 2 == 1;
    s.sms = 1 + static_cast<int>((seed / 7) % 3);                   // 1..3 SMs
    const bool intervals = seed % 4 != 0, windows = seed % 4 != 1;  // both in 3 of 4 seeds
    s.interval_percent = intervals ? 40 : 0;
    s.window_percent = windows ? 50 : 0;
    s.copy_percent = (seed / 4) % 2 ? 35 : 0;
    s.high_priority_streams = (seed / 8) % 2 && s.streams > 1 ? 1 : 0;
    s.null_stream = (seed / 16) % 2 == 1 && s.streams > 1;
    s.after_idle_percent = (seed / 11) % 3 != 0 ? 50 : 0;
    return s;
}

std::int64_t grid_combinations(const BlockProblem& p) {
    std::int64_t n = 1;
    for (int o = 0; o < p.ops(); ++o) {
        const std::int64_t units = p.kernel_of_op[o] >= 0 ? p.blocks[p.kernel_of_op[o]] : 1;
        for (std::int64_t j = 0; j < units; ++j) n *= p.duration[o] - p.duration_lo[o] + 1;
        n *= p.issue_hi[o] - p.issue_value[o] + 1;
    }
    return n;
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
