// Benchmark of "RTA maximised over launch orders" (solver/rta/max_over_orders.hpp) on the
// bench/wcrt workload family (bench/README.md): the search, for every kernel of each workload.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include "model/generate/random_workload.hpp"
#include "solver/rta/max_over_orders.hpp"

using namespace gpuwcrt;
using Clock = std::chrono::steady_clock;

namespace {

std::vector<int> int_list(const std::string& s) {
    std::vector<int> out;
    for (std::size_t p = 0; p < s.size();) {
        std::size_t q = s.find(',', p);
        out.push_back(std::stoi(s.substr(p, q - p)));
        p = q == std::string::npos ? s.size() : q + 1;
    }
    return out;
}

std::string seconds(long long ms) {
    return std::to_string(ms / 1000) + "." + std::to_string((ms % 1000) / 100) + std::to_string((ms % 100) / 10) + " s";
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> sizes = {4, 8, 12, 16, 32, 64};
    int runs = 3;
    long long cap_ms = 60000;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--sizes" && i + 1 < argc) sizes = int_list(argv[++i]);
        else if (a == "--runs" && i + 1 < argc) runs = std::stoi(argv[++i]);
        else if (a == "--search-cap" && i + 1 < argc) cap_ms = std::stoll(argv[++i]) * 1000;
        else {
            std::cerr << "usage: bench_rta_orders [--sizes 4,8,…] [--runs N] [--search-cap S]\n";
            return 2;
        }
    }
    std::cout << "| n | workloads | search median | search: undecided kernels per workload | stopped |\n"
                 "|---|---|---|---|---|\n";
    for (int n : sizes) {
        std::string undecided;
        std::vector<long long> ms;
        int stopped = 0;
        for (int r = 0; r < runs; ++r) {
            RandomWorkloadSpec spec;
            spec.kernels = n;
            spec.streams = n;
            const Workload w = random_workload(spec, 1000 * n + r);
            const auto t0 = Clock::now();
            const RtaMaxOverOrders m = rta_max_over_orders(w, Budget::until(t0 + std::chrono::milliseconds(cap_ms)));
            const long long took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
            ms.push_back(m.complete ? took : cap_ms);  // a stopped search counts as its cap
            stopped += !m.complete;
            int left = 0;
            for (std::size_t i = 0; i < w.ops.size(); ++i) left += w.ops[i].is_kernel() && !m.answers[i].exact();
            undecided += (undecided.empty() ? "" : ", ") + std::to_string(left);
            std::cerr << "n=" << n << " run " << r << ": "
                      << (m.complete ? std::to_string(took) + " ms" : "stopped (" + m.note + ")") << ", work " << m.work
                      << "\n";
        }
        std::sort(ms.begin(), ms.end());
        const long long median = ms[ms.size() / 2];
        std::cout << "| " << n << " | " << runs << " | " << (median >= cap_ms ? "> " : "") << seconds(median) << " | "
                  << undecided << " of " << n << " | " << stopped << " |" << std::endl;
    }
}
