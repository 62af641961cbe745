// Wall time and peak memory of the thesis RTA (bounds/rta/rta*.hpp) on N random kernels.
// Usage: bench_rta KERNELS [RUNS [SEED]]. One line of key=value pairs per invocation; run one
// size per process so that ru_maxrss is that size's peak (bench/rta/run.sh does).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <string>

#include "bounds/rta/rta.hpp"
#include "bounds/rta/rta_workload.hpp"
#include <random>

using namespace gpuwcrt;

namespace {

// One kernel per stream, 512-thread blocks (g_max = 8 on the TX2), g in 1..20, C in
// {1/4, …, 10}, releases in {0, 1/2, …, 2}. Built here rather than by model/generate/random_workload,
// whose validate_workload call is O(ops × streams): hours for 10^6 single-kernel streams.
Workload bench_workload(int n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto pick = [&](std::int64_t lo, std::int64_t hi) {
        return lo + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
    };
    Workload w;
    w.streams.resize(n);
    w.ops.resize(n);
    for (int k = 0; k < n; ++k) {
        Operation& op = w.ops[k];
        op.name = std::to_string(k + 1);  // appended, not "K" + …: GCC 12 warns falsely (-Wrestrict)
        op.name.insert(op.name.begin(), 'K');
        w.streams[k].name = op.name;
        op.stream = k;
        op.blocks = pick(1, 20);
        op.threads = 512;
        Time c = pick(1, 40);
        c /= 4;
        op.time = {c, c};
        Time r = pick(0, 4);
        r /= 2;
        op.issue.at = {r, r};
    }
    return w;
}

double median_seconds(std::vector<double> xs) {  // wall-clock statistics, not model time
    std::sort(xs.begin(), xs.end());
    return xs[xs.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: bench_rta KERNELS [RUNS [SEED]]\n";
        return 3;
    }
    const int n = std::stoi(argv[1]);
    const int runs = argc > 2 ? std::stoi(argv[2]) : 5;
    const std::uint64_t seed = argc > 3 ? std::stoull(argv[3]) : 1;
    const Workload w = bench_workload(n, seed);

    std::vector<double> whole, core;
    RtaOutcome last;
    for (int r = 0; r < runs; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        last = rta(w, rta_launch_order(w, {}));  // scope check, releases, order, Algorithm 2
        auto t1 = std::chrono::steady_clock::now();
        std::vector<RtaKernel> ks;
        ks.reserve(last.order.size());
        for (std::size_t i = 0; i < last.order.size(); ++i)
            ks.push_back({last.release[i], w.ops[last.order[i]].time.hi, last.big.slots_of(w.ops[last.order[i]])});
        auto t2 = std::chrono::steady_clock::now();
        const auto f = rta_algorithm2(ks, last.big.g_max);
        auto t3 = std::chrono::steady_clock::now();
        if (f != last.finish) {
            std::cerr << "bench_rta: Algorithm 2 disagrees with rta()\n";
            return 4;
        }
        whole.push_back(std::chrono::duration<double>(t1 - t0).count());
        core.push_back(std::chrono::duration<double>(t3 - t2).count());
    }
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    std::int64_t blocks = 0;
    for (const Operation& o : w.ops) blocks += o.blocks;
    std::cout << "kernels=" << n << " blocks=" << blocks << " g_max=" << last.big.g_max << " runs=" << runs
              << " seed=" << seed << " rta_median_s=" << median_seconds(whole)
              << " algorithm2_median_s=" << median_seconds(core) << " peak_rss_mib=" << ru.ru_maxrss / 1024
              << " last_finish="
              << exact_string(last.finish.empty() ? Time(0) : *std::max_element(last.finish.begin(), last.finish.end()))
              << " scope=" << (last.exact() ? "exact" : "approximation") << '\n';
    return 0;
}
