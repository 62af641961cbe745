// Benchmark of "RTA maximised over launch orders" (issue 14) on the bench/wcrt workload family
// (bench/README.md): the dedicated search, the prefix-set pass, the SMT form and enumeration of
// every order, for every kernel of each workload, one after the other in the same process.
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

struct Engine {
    RtaOrdersEngine engine;
    long long cap_ms;
    std::vector<long long> ms;
    int stopped = 0;
};

std::string median(Engine& e) {
    if (e.cap_ms == 0) return "skipped";
    std::sort(e.ms.begin(), e.ms.end());
    const long long m = e.ms[e.ms.size() / 2];
    return (m >= e.cap_ms ? "> " : "") + seconds(m);
}

std::string ratio(const Engine& a, const Engine& b) {  // median a / median b
    if (a.cap_ms == 0 || b.cap_ms == 0) return "n/a";
    const long long ma = a.ms[a.ms.size() / 2], mb = std::max(1LL, b.ms[b.ms.size() / 2]);
    const long long tenths = ma * 10 / mb;
    std::string r = std::to_string(tenths / 10) + "." + std::to_string(tenths % 10);
    if (ma >= a.cap_ms && mb >= b.cap_ms) return "n/a (both stopped)";
    if (ma >= a.cap_ms) return "> " + r;
    if (mb >= b.cap_ms) return "< " + r;
    return r;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> sizes = {4, 8, 12, 16, 32, 64};
    int runs = 3;
    Engine search{RtaOrdersEngine::search, 60000, {}}, smt{RtaOrdersEngine::smt, 60000, {}},
        en{RtaOrdersEngine::enumerate, 60000, {}}, sets{RtaOrdersEngine::sets, 60000, {}};
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--sizes" && i + 1 < argc) sizes = int_list(argv[++i]);
        else if (a == "--runs" && i + 1 < argc) runs = std::stoi(argv[++i]);
        else if (a == "--search-cap" && i + 1 < argc) search.cap_ms = std::stoll(argv[++i]) * 1000;
        else if (a == "--smt-cap" && i + 1 < argc) smt.cap_ms = std::stoll(argv[++i]) * 1000;
        else if (a == "--enum-cap" && i + 1 < argc) en.cap_ms = std::stoll(argv[++i]) * 1000;
        else if (a == "--sets-cap" && i + 1 < argc) sets.cap_ms = std::stoll(argv[++i]) * 1000;
        else {
            std::cerr << "usage: bench_rta_orders [--sizes 4,8,…] [--runs N] [--search-cap S] [--sets-cap S] "
                         "[--smt-cap S] [--enum-cap S]\n  a cap of 0 skips that engine\n";
            return 2;
        }
    }
    std::cout << "| n | workloads | search median | prefix sets median | SMT median | enumeration median | "
                 "sets/search | SMT/search | enum/search | search: undecided kernels per workload | sets stopped | "
                 "SMT stopped | enum stopped |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (int n : sizes) {
        std::string undecided;
        for (Engine* e : {&search, &sets, &smt, &en}) {
            e->ms.clear();
            e->stopped = 0;
        }
        for (int r = 0; r < runs; ++r) {
            RandomWorkloadSpec spec;
            spec.kernels = n;
            spec.streams = n;
            const Workload w = random_workload(spec, 1000 * n + r);
            std::vector<std::optional<Time>> reference;
            for (Engine* e : {&search, &sets, &smt, &en}) {
                if (e->cap_ms == 0) continue;
                const auto t0 = Clock::now();
                const RtaMaxOverOrders m = rta_max_over_orders(
                    w, e->engine, Budget::until(t0 + std::chrono::milliseconds(e->cap_ms)), 1LL << 62);
                const long long ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
                e->ms.push_back(m.complete ? ms : e->cap_ms);
                e->stopped += !m.complete;
                if (e == &search) {
                    int left = 0;
                    for (std::size_t i = 0; i < w.ops.size(); ++i) left += w.ops[i].is_kernel() && !m.response[i];
                    undecided += (undecided.empty() ? "" : ", ") + std::to_string(left);
                }
                std::cerr << "n=" << n << " run " << r << " " << to_string(e->engine) << ": "
                          << (m.complete ? std::to_string(ms) + " ms" : "stopped (" + m.note + ")") << ", work "
                          << m.work << "\n";
                // Engines that finish must agree (each value is also replayed by the reference RTA).
                if (m.complete) {
                    if (reference.empty()) reference = m.response;
                    else if (reference != m.response) {
                        std::cerr << "engines disagree on n=" << n << " run " << r << "\n";
                        return 1;
                    }
                }
            }
        }
        std::cout << "| " << n << " | " << runs << " | " << median(search) << " | " << median(sets) << " | "
                  << median(smt) << " | " << median(en) << " | " << ratio(sets, search) << " | " << ratio(smt, search)
                  << " | " << ratio(en, search) << " | "
                  << (search.cap_ms ? undecided + " of " + std::to_string(n) : "n/a") << " | " << sets.stopped << " | "
                  << smt.stopped << " | " << en.stopped << " |" << std::endl;
    }
}
