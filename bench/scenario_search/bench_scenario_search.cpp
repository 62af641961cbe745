// The scenario search (sim/search/) alone on one workload: per operation the
// replayed lower bound after each budget, the simulations run and the time they took.
//   bench_scenario_search FILE SECONDS... [--policy any|most-room|round-robin|first-fit]
// Each SECONDS runs a fresh search (seed 12) with that wall budget and no simulation cap.
#include <chrono>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "sim/search/scenario_search.hpp"
#include "model/io/load_toml.hpp"

using namespace gpuwcrt;

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: bench_scenario_search FILE SECONDS... [--policy P]\n";
        return 3;
    }
    try {
        const Workload w = load_workload_file(argv[1]);
        Policy policy = Policy::chooser;
        std::vector<long> budgets;
        for (int i = 2; i < argc; ++i) {
            const std::string a = argv[i];
            if (a == "--policy" && i + 1 < argc) {
                const std::string p = argv[++i];
                if (p != "any") policy = *parse_policy(p);
            } else {
                budgets.push_back(std::stol(a));
            }
        }
        std::cout << "operation";
        for (long s : budgets) std::cout << "\tLB@" << s << "s";
        std::cout << "\n";
        std::vector<std::vector<Time>> lb;
        for (long s : budgets) {
            const auto t0 = std::chrono::steady_clock::now();
            search::ScenarioSearch scenarios(w, search::Options{policy, 12});
            scenarios.run(Budget::for_timeout(std::chrono::seconds(s)), std::numeric_limits<long long>::max() / 2);
            const auto ms =
                std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
            std::cerr << s << " s: " << scenarios.simulations() << " simulations in " << ms << " ms\n";
            lb.emplace_back();
            for (std::size_t op = 0; op < w.ops.size(); ++op) {
                scenarios.witness(static_cast<int>(op));  // replayed
                lb.back().push_back(*scenarios.best()[op]);
            }
        }
        for (std::size_t op = 0; op < w.ops.size(); ++op) {
            std::cout << w.ops[op].name;
            for (const auto& b : lb) std::cout << "\t" << exact_string(b[op]);
            std::cout << "\n";
        }
    } catch (const InputError& e) {
        std::cerr << e.what() << "\n";
        return 3;
    }
    return 0;
}
