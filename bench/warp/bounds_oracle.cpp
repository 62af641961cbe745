// The bounds engine against the explicit engine (the test oracle) on every point of a grid
// that the explicit engine answers within its budget: exact claims must equal the oracle, and
// the proven bounds and witnesses must bracket it. Prints one CSV row per point and a summary;
// exit 4 on any disagreement. ctest runs the same comparison with a memory-capped oracle.
// The oracle is the frontier sweep (solver/warp/warp_frontier) for both goals in one pass, values
// only (no schedule is kept), on --threads threads; --memo uses the memoising search of
// sessions 1-5 instead (one search per goal). "states" is the sum of the frontier sizes
// (memo: distinct states of both searches), "peak" the largest frontier (memo: -).
// Usage: bounds_oracle [--fairness none] [--units tr|slot|slow|wide] [--min-warps W]
//                      [--max-warps W] [--min-rep R] [--max-rep R] [--timeout S]
//                      [--threads N] [--memo 1]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>

#include "solver/warp/warp_frontier.hpp"
#include "solver/warp/warp_memo_search.hpp"
#include "model/warp/warp_tr.hpp"
#include "solver/warp/warp_check.hpp"

using namespace gpuwcrt;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
    std::string fairness = "none", units = "tr";
    int min_w = 1, max_w = 16, min_r = 1, max_r = 4, timeout_s = 600, threads = 2;
    bool memo = false;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i], v = argv[i + 1];
        if (a == "--fairness") fairness = v;
        else if (a == "--units") units = v;
        else if (a == "--min-warps") min_w = std::atoi(v.c_str());
        else if (a == "--max-warps") max_w = std::atoi(v.c_str());
        else if (a == "--min-rep") min_r = std::atoi(v.c_str());
        else if (a == "--max-rep") max_r = std::atoi(v.c_str());
        else if (a == "--timeout") timeout_s = std::atoi(v.c_str());
        else if (a == "--threads") threads = std::max(1, std::atoi(v.c_str()));
        else if (a == "--memo") memo = v == "1";
    }
    FermiUnits u;
    if (units == "slot") u.issue_limit = 1;
    else if (units == "slow") u.latency_l = 3;
    else if (units == "wide") u.cuda = 1, u.ldst = 2;
    const WarpFairness f = parse_warp_fairness(fairness).value_or(WarpFairness::none);
    std::cout << "units,fairness,W,rep,explicit_worst,explicit_best,explicit_ms,states,bounds_worst,bounds_best,"
                 "worst_lower,worst_upper,agree\n";
    int compared = 0, exact = 0, skipped = 0;
    bool ok = true;
    for (int w = min_w; w <= max_w; ++w)
        for (int r = min_r; r <= max_r; ++r) {
            const WarpProblem p = tr_problem(w, r, f, u);
            WarpEngines bounds_only;
            bounds_only.bounds = true;
            bounds_only.explicit_state = false;
            const WarpCheck b = check_warp(p, w * 16LL, bounds_only);
            Budget budget;
            budget.deadline = Clock::now() + std::chrono::seconds(timeout_s);
            const auto t0 = Clock::now();
            // A point may take an hour: say on stderr every minute how far the oracle got.
            std::atomic<bool> point_done{false};
            std::thread progress([&] {
                for (int tick = 1; !point_done; ++tick) {
                    for (int k = 0; k < 600 && !point_done; ++k) std::this_thread::sleep_for(std::chrono::milliseconds(100));
                    if (!point_done)
                        std::cerr << "[oracle] " << units << " W=" << w << " rep=" << r << ": "
                                  << budget.counters().states.load() << " states after " << tick << " min\n";
                }
            });
            WarpExtreme ew, eb;
            std::size_t peak = 0;
            if (memo) {
                ew = memo_extreme(p, WarpGoal::worst, budget);
                if (!ew.stopped) eb = memo_extreme(p, WarpGoal::best, budget);
            } else {
                WarpFrontierOptions o;
                o.witness = false;
                o.threads = static_cast<unsigned>(threads);
                WarpExtremes both = frontier_extremes(p, budget, o);
                ew = std::move(both.worst);
                eb = std::move(both.best);
                peak = both.peak_frontier;
            }
            point_done = true;
            progress.join();
            const long long ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
            const bool answered = !ew.stopped && !eb.stopped;
            const WarpEngineRun& run = b.runs.front();
            bool agree = true;
            if (answered) {
                agree = (!b.worst || *b.worst == ew.makespan) && (!b.best || *b.best == eb.makespan) &&
                        (!run.worst_upper || ew.makespan <= *run.worst_upper) &&
                        (!run.worst_bound || ew.makespan >= *run.worst_bound) &&
                        (!run.best_lower || eb.makespan >= *run.best_lower) &&
                        (!run.best_bound || eb.makespan <= *run.best_bound);
                ++compared;
                exact += b.worst.has_value();
            } else {
                ++skipped;
            }
            ok = ok && agree && !b.engines_disagree;
            const auto opt = [](const auto& v) { return v ? std::to_string(*v) : std::string("-"); };
            std::cout << units << ',' << fairness << ',' << w << ',' << r << ','
                      << (answered ? std::to_string(ew.makespan) : "timeout") << ','
                      << (answered ? std::to_string(eb.makespan) : "-") << ',' << ms << ',' << (memo ? ew.states + eb.states : ew.states) << ','
                      << (memo ? std::string("-") : std::to_string(peak)) << ','
                      << opt(b.worst) << ',' << opt(b.best) << ',' << opt(run.worst_bound) << ',' << opt(run.worst_upper)
                      << ',' << (agree ? "yes" : "NO") << '\n'
                      << std::flush;
        }
    std::cout << "compared " << compared << ", bounds exact on the worst case for " << exact << " of them, explicit out of "
              << timeout_s << " s on " << skipped << (ok ? "; all agree" : "; DISAGREEMENT") << '\n';
    return ok ? 0 : 4;
}
