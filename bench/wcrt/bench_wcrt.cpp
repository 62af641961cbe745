// Benchmark of the WCRT engines on seeded random workload families (bench/README.md):
// for each n, several workloads; per workload the time of the SMT engine and of the exhaustive
// engine for the WCRT of every kernel, measured in the same run.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "bounds/engine_options.hpp"
#include "bounds/engine_stats.hpp"
#include "encode/block/block_problem.hpp"
#include "model/generate/random_workload.hpp"
#include "model/io/write_toml.hpp"
#include "solver/block/enumerate/enumerate.hpp"
#include "solver/block/smt/wcrt_smt.hpp"

using namespace gpuwcrt;
using Clock = std::chrono::steady_clock;

namespace {

long long ms_since(Clock::time_point t0) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
}

std::string median(std::vector<long long> v, long long cap) {
    std::sort(v.begin(), v.end());
    long long m = v[v.size() / 2];
    if (m >= cap) return "> " + std::to_string(cap / 1000) + " s";
    return std::to_string(m / 1000) + "." + std::to_string((m % 1000) / 100) + std::to_string((m % 100) / 10) + " s";
}

struct Args {
    std::vector<int> sizes = {4, 6, 8, 10, 12, 14, 16};
    int per_size = 3;
    long long smt_cap_ms = 600000, enum_cap_ms = 600000;
    std::string dump_dir;   // --dump DIR: also write each workload as DIR/n<N>-run<R>.toml
    bool features = false;  // --priorities-copies: a quarter of the streams high, a quarter of the operations copies
};

std::vector<int> parse_sizes(const std::string& s) {
    std::vector<int> sizes;
    for (std::size_t p = 0; p < s.size();) {
        std::size_t q = s.find(',', p);
        sizes.push_back(std::stoi(s.substr(p, q - p)));
        p = q == std::string::npos ? s.size() : q + 1;
    }
    return sizes;
}

// False on a bad command line (usage printed on stderr).
bool parse_args(int argc, char** argv, Args& o) {
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--sizes" && i + 1 < argc) o.sizes = parse_sizes(argv[++i]);
        else if (a == "--runs" && i + 1 < argc) o.per_size = std::stoi(argv[++i]);
        else if (a == "--enum-cap" && i + 1 < argc) o.enum_cap_ms = std::stoll(argv[++i]) * 1000;
        else if (a == "--smt-cap" && i + 1 < argc) o.smt_cap_ms = std::stoll(argv[++i]) * 1000;
        else if (a == "--dump" && i + 1 < argc) o.dump_dir = argv[++i];
        else if (a == "--priorities-copies") o.features = true;
        else {
            std::cerr << "usage: bench_wcrt [--sizes 4,6,…] [--runs N] [--enum-cap S] [--smt-cap S] [--dump DIR] "
                         "[--priorities-copies]\n"
                         "  a cap of 0 skips that engine\n";
            return false;
        }
    }
    return true;
}

Workload bench_workload(const Args& o, int n, int r) {
    RandomWorkloadSpec spec;
    spec.kernels = n;
    spec.streams = n;
    if (o.features) {  // same seeds; the extra draws change the workloads (random_workload.hpp)
        spec.copy_percent = 25;
        spec.high_priority_streams = std::max(1, n / 4);
    }
    const Workload w = random_workload(spec, 1000 * n + r);
    if (!o.dump_dir.empty()) {
        TomlWriteOptions to;
        to.title = "bench/wcrt workload n=" + std::to_string(n) + " run " + std::to_string(r) + " (seed " +
                   std::to_string(1000 * n + r) + ")";
        std::ofstream(o.dump_dir + "/n" + std::to_string(n) + "-run" + std::to_string(r) + ".toml")
            << workload_to_toml(w, to);
    }
    return w;
}

// Per family size: the engines' times and how many kernels the SMT engine decided.
struct SizeRow {
    std::vector<long long> smt_ms, enum_ms;
    int exact = 0, kernels = 0;
};

// The SMT engine on every operation of w, within smt_cap_ms in all; its time.
long long time_smt(const Workload& w, const EngineOptions& base, long long smt_cap_ms, SizeRow& row) {
    const EngineOptions& o = base;
    auto t0 = Clock::now();
    const Budget smt_budget = Budget::for_timeout(std::chrono::milliseconds(smt_cap_ms));
    const BlockProblem p = make_block_problem(w);
    EngineStats st;
    for (std::size_t op = 0; op < w.ops.size() && smt_cap_ms > 0; ++op) {
        const auto t_op = Clock::now();
        const long long calls = st.solver_calls;
        WcrtAnswer a = smt_maximise(w, p, static_cast<int>(op), o, smt_budget, st);
        if (std::getenv("BENCH_VERBOSE"))
            std::cerr << "  " << w.ops[op].name << ": " << ms_since(t_op) << " ms, " << st.solver_calls - calls
                      << " checks\n";
        ++row.kernels;
        row.exact += a.status == WcrtStatus::exact ? 1 : 0;
        if (a.status != WcrtStatus::exact)
            std::cerr << "  unknown for " << w.ops[op].name << ": " << a.unknown_reason << "\n";
    }
    return std::min(ms_since(t0), smt_cap_ms);
}

void run_workload(const Args& args, int n, int r, SizeRow& row) {
    const Workload w = bench_workload(args, n, r);
    EngineOptions o;
    if (const char* pol = std::getenv("BENCH_POLICY")) o.policy = *parse_policy(pol);
    if (const char* enc = std::getenv("BENCH_ENCODING"))
        o.encoding = std::string(enc) == "event" ? EncodingChoice::event : EncodingChoice::time_indexed;
    row.smt_ms.push_back(time_smt(w, o, args.smt_cap_ms, row));
    EngineOptions eo;
    eo.policy = o.policy;
    const auto t0 = Clock::now();
    EnumerationResult er;
    if (args.enum_cap_ms > 0)
        er = enumerate_wcrt(w, eo, Budget::for_timeout(std::chrono::milliseconds(args.enum_cap_ms)));
    row.enum_ms.push_back(er.complete ? ms_since(t0) : args.enum_cap_ms);
    std::cerr << "n=" << n << " run " << r << ": smt " << row.smt_ms.back() << " ms, enumerate "
              << (er.complete ? std::to_string(row.enum_ms.back()) + " ms" : "stopped") << " (" << er.stats.scenarios
              << " scenarios)\n";
}

void print_row(const Args& args, int n, SizeRow& row) {
    std::sort(row.smt_ms.begin(), row.smt_ms.end());
    std::sort(row.enum_ms.begin(), row.enum_ms.end());
    const long long sm = row.smt_ms[row.smt_ms.size() / 2], em = row.enum_ms[row.enum_ms.size() / 2];
    // Ratio of medians; a capped engine makes it a bound, two capped engines leave it open.
    const long long tenths = em * 10 / std::max(1LL, sm);
    std::string ratio = std::to_string(tenths / 10) + "." + std::to_string(tenths % 10);
    if (sm >= args.smt_cap_ms && em >= args.enum_cap_ms) ratio = "n/a (both stopped)";
    else if (em >= args.enum_cap_ms) ratio = "> " + ratio;
    else if (sm >= args.smt_cap_ms) ratio = "< " + ratio;
    std::cout << "| " << n << " | " << args.per_size << " | " << median(row.smt_ms, args.smt_cap_ms) << " | "
              << median(row.enum_ms, args.enum_cap_ms) << " | " << ratio << " | " << row.exact << "/" << row.kernels
              << " |" << std::endl;
}

}  // namespace

int main(int argc, char** argv) {
    Args args;
    if (!parse_args(argc, argv, args)) return 2;
    std::cout
        << "| n | workloads | SMT median | enumeration median | ratio enum/SMT | kernels the SMT engine decided |\n"
        << "|---|---|---|---|---|---|\n";
    for (int n : args.sizes) {
        SizeRow row;
        for (int r = 0; r < args.per_size; ++r) run_workload(args, n, r, row);
        print_row(args, n, row);
    }
}
