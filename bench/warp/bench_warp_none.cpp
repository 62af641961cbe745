// The worst case without fairness (and with one issue slot or 3-cycle loads) by the
// bounds engine (the `auto` path: proven bounds + priority-rule witnesses, the explicit engine
// only for a goal they leave open) against the explicit engine alone, same run, same process.
// Prints one Markdown row per point. Usage: bench_warp_none [--runs N] [--explicit-timeout S]
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "bench/warp/timing.hpp"
#include "solver/warp/warp_explicit.hpp"
#include "model/warp/warp_tr.hpp"
#include "solver/warp/warp_check.hpp"

using namespace gpuwcrt;
using bench::Clock;
using bench::median;
using bench::us_since;

namespace {

std::string shown(const std::optional<long long>& v) { return v ? std::to_string(*v) : "?"; }

}  // namespace

int main(int argc, char** argv) {
    int runs = 5, explicit_timeout_s = 120;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--runs") runs = std::atoi(argv[i + 1]);
        else if (a == "--explicit-timeout") explicit_timeout_s = std::atoi(argv[i + 1]);
    }
    FermiUnits tr, slot, slow;
    slot.issue_limit = 1;
    slow.latency_l = 3;
    struct Point {
        const char* variant;
        FermiUnits u;
        int w, rep;
    };
    const std::vector<Point> points{{"tr", tr, 2, 8},      {"tr", tr, 8, 4},      {"tr", tr, 16, 4},
                                    {"tr", tr, 16, 8},     {"tr", tr, 64, 8},     {"slot", slot, 8, 4},
                                    {"slot", slot, 16, 8}, {"slot", slot, 64, 8}, {"slow", slow, 4, 4},
                                    {"slow", slow, 8, 4},  {"slow", slow, 16, 8}, {"slow", slow, 64, 8}};
    std::cout << "| variant | W | rep | FT | worst (bounds engine) | best | how | bounds engine µs (median of " << runs
              << ") | explicit engine (budget " << explicit_timeout_s << " s, 1 run) | explicit / bounds |\n"
              << "|---|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& pt : points) {
        const WarpProblem p = tr_problem(pt.w, pt.rep, WarpFairness::none, pt.u);
        WarpEngines automatic;
        automatic.bounds = automatic.explicit_if_open = true;
        std::vector<long long> bt;
        WarpCheck c;
        for (int r = 0; r < runs; ++r) {
            Budget budget;
            budget.deadline = Clock::now() + std::chrono::seconds(60);
            const auto t0 = Clock::now();
            c = check_warp(p, pt.w * 16LL, automatic, budget);
            bt.push_back(us_since(t0));
        }
        const bool by_bounds = c.runs.size() == 1;
        Budget eb;
        eb.deadline = Clock::now() + std::chrono::seconds(explicit_timeout_s);
        auto t0 = Clock::now();
        const WarpExtreme ew = explicit_extreme(p, WarpGoal::worst, eb);
        const WarpExtreme ebst = ew.stopped ? WarpExtreme{} : explicit_extreme(p, WarpGoal::best, eb);
        const long long et = us_since(t0);
        std::string ex;
        if (ew.stopped || ebst.stopped) {
            ex = "unknown (" + to_string(ew.stopped ? *ew.stopped : *ebst.stopped) + ") after " +
                 std::to_string(et / 1000) + " ms, " + std::to_string(ew.states + ebst.states) + " states";
        } else {
            ex = std::to_string(ew.makespan) + " / " + std::to_string(ebst.makespan) + ", " +
                 std::to_string(et / 1000) + " ms, " + std::to_string(ew.states + ebst.states) + " states";
            if ((c.worst.exact() && *c.worst.exact() != ew.makespan) ||
                (c.best.exact() && *c.best.exact() != ebst.makespan)) {
                std::cerr << "engines disagree at " << pt.variant << " W=" << pt.w << " rep=" << pt.rep << '\n';
                return 4;
            }
        }
        const long long b = median(bt);
        std::cout << "| " << pt.variant << " | " << pt.w << " | " << pt.rep << " | "
                  << (c.ft ? std::to_string(*c.ft) : "-") << " | " << shown(c.worst.exact()) << " | "
                  << shown(c.best.exact()) << " | "
                  << (by_bounds ? "bounds meet" : "bounds + explicit for the open goal") << " | " << b << " | " << ex
                  << " | " << (ew.stopped || ebst.stopped ? ">= " : "") << et / std::max(1LL, b) << "x |\n"
                  << std::flush;
    }
}
