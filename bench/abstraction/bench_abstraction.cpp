// Benchmark of the interval-abstraction engine (--engine bounds) on the bench/wcrt family
// (bench/README.md): per n, several seeded workloads; per workload the time, abstract states,
// rounds, peak RSS, and the ratio UB/LB of every kernel (proven upper bound over replayed
// lower bound). With --file, the given workload files instead (a row each, n = operations).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "bounds/engine_options.hpp"
#include "model/generate/random_workload.hpp"
#include "model/io/load_toml.hpp"
#include "bounds/abstraction/bounds.hpp"

using namespace gpuwcrt;
using Clock = std::chrono::steady_clock;

namespace {

long long peak_rss_mib() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss / 1024;  // KiB on Linux; a process-wide high-water mark
}

// UB/LB as a decimal with three places, from exact rationals (no floating point in the bound).
std::string ratio_text(const Time& r) {
    const Time scaled = r * 1000;
    const BigInt n = boost::multiprecision::numerator(scaled), d = boost::multiprecision::denominator(scaled);
    const BigInt q = (n + d - 1) / d;  // rounded up: a ratio is never understated
    std::ostringstream out;
    out << q / 1000 << "." << std::setw(3) << std::setfill('0') << static_cast<long long>(q % 1000);
    return out.str();
}

std::vector<int> parse_sizes(const std::string& s) {
    std::vector<int> v;
    for (std::size_t p = 0; p < s.size();) {
        std::size_t q = s.find(',', p);
        v.push_back(std::stoi(s.substr(p, q - p)));
        p = q == std::string::npos ? s.size() : q + 1;
    }
    return v;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> sizes = {10, 16, 32};
    int runs = 3;
    long long cap_s = 60;
    BoundsOptions b;
    std::string refine = "uniform";
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--sizes" && i + 1 < argc) sizes = parse_sizes(argv[++i]);
        else if (a == "--runs" && i + 1 < argc) runs = std::stoi(argv[++i]);
        else if (a == "--cap" && i + 1 < argc) cap_s = std::stoll(argv[++i]);
        else if (a == "--max-states" && i + 1 < argc) b.max_states = std::stoi(argv[++i]);
        else if (a == "--refine" && i + 1 < argc) refine = argv[++i];
        else if (a == "--depth" && i + 1 < argc) b.targeted_depth = std::stoi(argv[++i]);
        else if (a == "--partial-cap" && i + 1 < argc) b.partial_cap = std::stoi(argv[++i]);
        else if (a == "--probe-cap" && i + 1 < argc) b.probe_partial_cap = std::stoi(argv[++i]);
        else if (a == "--initial-states" && i + 1 < argc) b.initial_states = std::stoi(argv[++i]);
        else if (a == "--shift") b.shift_merge = true;
        else if (a == "--file" && i + 1 < argc) files.push_back(argv[++i]);
        else {
            std::cerr
                << "usage: bench_abstraction [--sizes 10,16,32] [--runs N] [--cap SECONDS] [--max-states K] "
                   "[--refine uniform|targeted|both] [--depth D] [--partial-cap P] [--probe-cap P (>= P: no probe)] "
                   "[--initial-states K] [--shift] "
                   "[--file WORKLOAD.toml]...\n";
            return 2;
        }
    }
    std::vector<bool> modes;
    if (refine != "targeted") modes.push_back(false);
    if (refine != "uniform") modes.push_back(true);
    std::cout << "| n | run | refinement | time | rounds (K/placements: states in time) | kernels exact | median UB/LB "
                 "| max UB/LB | peak RSS |\n"
              << "|---|---|---|---|---|---|---|---|---|\n";
    if (!files.empty()) sizes = {0}, runs = static_cast<int>(files.size());
    for (const int size : sizes) {
        for (int r = 0; r < runs; ++r)
            for (const bool targeted : modes) {
                b.targeted = targeted;
                RandomWorkloadSpec spec;
                spec.kernels = size;
                spec.streams = size;
                const Workload w =
                    files.empty() ? random_workload(spec, 1000 * size + r) : load_workload_file(files[r]);
                const int n = static_cast<int>(w.ops.size());
                const EngineOptions o;
                const auto t0 = Clock::now();
                const BoundsResult res = abstraction_bounds(w, o, Budget::for_timeout(std::chrono::seconds(cap_s)), b);
                const long long ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
                std::vector<Time> ratios;
                int exact = 0, bounded = 0;
                for (const WcrtAnswer& a : res.wcrt) {
                    exact += a.status == WcrtStatus::exact;
                    if (a.upper && a.lower) ratios.push_back(*a.upper / *a.lower), ++bounded;
                }
                std::sort(ratios.begin(), ratios.end());
                std::ostringstream rounds;
                for (const BoundsRound& x : res.rounds)
                    rounds << (&x == &res.rounds.front() ? "" : ", ") << x.states_per_set << "/" << x.partial_cap
                           << ": " << x.states << " in " << x.elapsed.count() / 100 / 10.0 << " s"
                           << (x.complete ? "" : " (stopped)")
                           << (x.complete && x.max_ratio ? " (max " + ratio_text(*x.max_ratio) + ")" : "")
                           << (targeted && x.refined_keys ? " [" + std::to_string(x.refined_keys) + " keys refined]"
                                                          : "");
                std::cout << "| " << n << " | " << r << " | " << (targeted ? "targeted" : "uniform") << " | "
                          << ms / 1000 << "." << (ms % 1000) / 100 << " s | " << rounds.str() << " | " << exact << "/"
                          << w.ops.size() << " | " << (ratios.empty() ? "-" : ratio_text(ratios[ratios.size() / 2]))
                          << " | "
                          << (bounded < static_cast<int>(w.ops.size())
                                  ? "no UB for " + std::to_string(w.ops.size() - bounded)
                                  : ratio_text(ratios.back()))
                          << " | " << peak_rss_mib() << " MiB |" << std::endl;
            }
    }
}
