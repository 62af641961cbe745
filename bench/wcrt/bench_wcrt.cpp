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

#include "encode/block/block_problem.hpp"
#include "model/generate/random_workload.hpp"
#include "model/io/write_toml.hpp"
#include "solver/block/enumerate.hpp"
#include "solver/block/wcrt_smt.hpp"

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

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> sizes = {4, 6, 8, 10, 12, 14, 16};
    int per_size = 3;
    long long smt_cap_ms = 600000, enum_cap_ms = 600000;
    std::string dump_dir;  // --dump DIR: also write each workload as DIR/n<N>-run<R>.toml
    bool features = false;  // --priorities-copies: a quarter of the streams high, a quarter of the operations copies
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--sizes" && i + 1 < argc) {
            sizes.clear();
            std::string s = argv[++i];
            for (std::size_t p = 0; p < s.size();) {
                std::size_t q = s.find(',', p);
                sizes.push_back(std::stoi(s.substr(p, q - p)));
                p = q == std::string::npos ? s.size() : q + 1;
            }
        } else if (a == "--runs" && i + 1 < argc) per_size = std::stoi(argv[++i]);
        else if (a == "--enum-cap" && i + 1 < argc) enum_cap_ms = std::stoll(argv[++i]) * 1000;
        else if (a == "--smt-cap" && i + 1 < argc) smt_cap_ms = std::stoll(argv[++i]) * 1000;
        else if (a == "--dump" && i + 1 < argc) dump_dir = argv[++i];
        else if (a == "--priorities-copies") features = true;
        else {
            std::cerr << "usage: bench_wcrt [--sizes 4,6,…] [--runs N] [--enum-cap S] [--smt-cap S] [--dump DIR] [--priorities-copies]\n"
                         "  a cap of 0 skips that engine\n";
            return 2;
        }
    }
    std::cout << "| n | workloads | SMT median | enumeration median | ratio enum/SMT | kernels the SMT engine decided |\n"
              << "|---|---|---|---|---|---|\n";
    for (int n : sizes) {
        std::vector<long long> smt_ms, enum_ms;
        int exact = 0, kernels = 0;
        for (int r = 0; r < per_size; ++r) {
            RandomWorkloadSpec spec;
            spec.kernels = n;
            spec.streams = n;
            if (features) {  // same seeds; the extra draws change the workloads (random_workload.hpp)
                spec.copy_percent = 25;
                spec.high_priority_streams = std::max(1, n / 4);
            }
            const Workload w = random_workload(spec, 1000 * n + r);
            if (!dump_dir.empty()) {
                TomlWriteOptions to;
                to.title = "bench/wcrt workload n=" + std::to_string(n) + " run " + std::to_string(r) + " (seed " +
                           std::to_string(1000 * n + r) + ")";
                std::ofstream(dump_dir + "/n" + std::to_string(n) + "-run" + std::to_string(r) + ".toml")
                    << workload_to_toml(w, to);
            }
            EngineOptions o;
            if (const char* pol = std::getenv("BENCH_POLICY")) o.policy = *parse_policy(pol);
            if (const char* enc = std::getenv("BENCH_ENCODING"))
                o.encoding = std::string(enc) == "event" ? EncodingChoice::event : EncodingChoice::time_indexed;
            auto t0 = Clock::now();
            const Budget smt_budget = Budget::for_timeout(std::chrono::milliseconds(smt_cap_ms));
            const BlockProblem p = make_block_problem(w);
            EngineStats st;
            for (std::size_t op = 0; op < w.ops.size() && smt_cap_ms > 0; ++op) {
                const auto t_op = Clock::now();
                const long long calls = st.solver_calls;
                WcrtAnswer a = smt_maximise(w, p, static_cast<int>(op), o, smt_budget, st);
                if (std::getenv("BENCH_VERBOSE"))
                    std::cerr << "  " << w.ops[op].name << ": " << ms_since(t_op) << " ms, "
                              << st.solver_calls - calls << " checks\n";
                ++kernels;
                exact += a.status == WcrtStatus::exact ? 1 : 0;
                if (a.status != WcrtStatus::exact) std::cerr << "  unknown for " << w.ops[op].name << ": " << a.unknown_reason << "\n";
            }
            smt_ms.push_back(std::min(ms_since(t0), smt_cap_ms));
            EngineOptions eo;
            eo.policy = o.policy;
            t0 = Clock::now();
            EnumerationResult er;
            if (enum_cap_ms > 0) er = enumerate_wcrt(w, eo, Budget::for_timeout(std::chrono::milliseconds(enum_cap_ms)));
            enum_ms.push_back(er.complete ? ms_since(t0) : enum_cap_ms);
            std::cerr << "n=" << n << " run " << r << ": smt " << smt_ms.back() << " ms, enumerate "
                      << (er.complete ? std::to_string(enum_ms.back()) + " ms" : "stopped") << " ("
                      << er.stats.scenarios << " scenarios)\n";
        }
        std::sort(smt_ms.begin(), smt_ms.end());
        std::sort(enum_ms.begin(), enum_ms.end());
        const long long sm = smt_ms[smt_ms.size() / 2], em = enum_ms[enum_ms.size() / 2];
        // Ratio of medians; a capped engine makes it a bound, two capped engines leave it open.
        const long long tenths = em * 10 / std::max(1LL, sm);
        std::string ratio = std::to_string(tenths / 10) + "." + std::to_string(tenths % 10);
        if (sm >= smt_cap_ms && em >= enum_cap_ms) ratio = "n/a (both stopped)";
        else if (em >= enum_cap_ms) ratio = "> " + ratio;
        else if (sm >= smt_cap_ms) ratio = "< " + ratio;
        std::cout << "| " << n << " | " << per_size << " | " << median(smt_ms, smt_cap_ms) << " | "
                  << median(enum_ms, enum_cap_ms) << " | " << ratio << " | " << exact << "/" << kernels << " |"
                  << std::endl;
    }
}
