// The bounds engine against the explicit engine (the test oracle) on every point of a grid
// that the explicit engine answers within its budget: exact claims must equal the oracle, and
// the proven bounds and witnesses must bracket it. Prints one CSV row per point and a summary;
// exit 4 on any disagreement. ctest runs the same comparison with a memory-capped oracle.
// The oracle is the frontier sweep (solver/warp/warp_frontier) for both goals in one pass, values
// only (no schedule is kept), on --threads threads; --memo uses the memoising search
// (solver/warp/warp_memo_search, one search per goal) instead. "states" is the sum of the frontier sizes
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

namespace {

struct Args {
    std::string fairness = "none", units = "tr";
    int min_w = 1, max_w = 16, min_r = 1, max_r = 4, timeout_s = 600, threads = 2;
    bool memo = false;
};

Args parse_args(int argc, char** argv) {
    Args o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i], v = argv[i + 1];
        if (a == "--fairness") o.fairness = v;
        else if (a == "--units") o.units = v;
        else if (a == "--min-warps") o.min_w = std::atoi(v.c_str());
        else if (a == "--max-warps") o.max_w = std::atoi(v.c_str());
        else if (a == "--min-rep") o.min_r = std::atoi(v.c_str());
        else if (a == "--max-rep") o.max_r = std::atoi(v.c_str());
        else if (a == "--timeout") o.timeout_s = std::atoi(v.c_str());
        else if (a == "--threads") o.threads = std::max(1, std::atoi(v.c_str()));
        else if (a == "--memo") o.memo = v == "1";
    }
    return o;
}

// The explicit engine's answer for one point: both extremes, and the largest frontier.
struct Oracle {
    WarpExtreme worst, best;
    std::size_t peak = 0;
};

Oracle explicit_extremes(const WarpProblem& p, const Args& a, Budget& budget) {
    Oracle e;
    if (a.memo) {
        e.worst = memo_extreme(p, WarpGoal::worst, budget);
        if (!e.worst.stopped) e.best = memo_extreme(p, WarpGoal::best, budget);
    } else {
        WarpFrontierOptions o;
        o.witness = false;
        o.threads = static_cast<unsigned>(a.threads);
        WarpExtremes both = frontier_extremes(p, budget, o);
        e.worst = std::move(both.worst);
        e.best = std::move(both.best);
        e.peak = both.peak_frontier;
    }
    return e;
}

// The same, saying on stderr every minute how far the oracle got (a point may take an hour).
Oracle explicit_with_progress(const WarpProblem& p, const Args& a, int w, int r, Budget& budget) {
    std::atomic<bool> point_done{false};
    std::thread progress([&] {
        for (int tick = 1; !point_done; ++tick) {
            for (int k = 0; k < 600 && !point_done; ++k) std::this_thread::sleep_for(std::chrono::milliseconds(100));
            if (!point_done)
                std::cerr << "[oracle] " << a.units << " W=" << w << " rep=" << r << ": "
                          << budget.counters().states.load() << " states after " << tick << " min\n";
        }
    });
    Oracle e = explicit_extremes(p, a, budget);
    point_done = true;
    progress.join();
    return e;
}

// Exact claims equal the oracle, and the proven bounds bracket it.
bool agrees(const WarpCheck& b, const Oracle& e) {
    const WarpEngineRun& run = b.runs.front();
    const WarpExtreme &ew = e.worst, &eb = e.best;
    return (!b.worst.exact() || *b.worst.exact() == ew.makespan) &&
           (!b.best.exact() || *b.best.exact() == eb.makespan) &&
           (!run.worst.upper || ew.makespan <= *run.worst.upper) &&
           (!run.worst.lower || ew.makespan >= *run.worst.lower) &&
           (!run.best.lower || eb.makespan >= *run.best.lower) && (!run.best.upper || eb.makespan <= *run.best.upper);
}

void print_row(const Args& a, int w, int r, const WarpCheck& b, const Oracle& e, bool answered, long long ms,
               bool agree) {
    const WarpEngineRun& run = b.runs.front();
    const WarpExtreme &ew = e.worst, &eb = e.best;
    const auto opt = [](const auto& v) { return v ? std::to_string(*v) : std::string("-"); };
    std::cout << a.units << ',' << a.fairness << ',' << w << ',' << r << ','
              << (answered ? std::to_string(ew.makespan) : "timeout") << ','
              << (answered ? std::to_string(eb.makespan) : "-") << ',' << ms << ','
              << (a.memo ? ew.states + eb.states : ew.states) << ','
              << (a.memo ? std::string("-") : std::to_string(e.peak)) << ',' << opt(b.worst.exact()) << ','
              << opt(b.best.exact()) << ',' << opt(run.worst.lower) << ',' << opt(run.worst.upper) << ','
              << (agree ? "yes" : "NO") << '\n'
              << std::flush;
}

}  // namespace

int main(int argc, char** argv) {
    const Args a = parse_args(argc, argv);
    FermiUnits u;
    if (a.units == "slot") u.issue_limit = 1;
    else if (a.units == "slow") u.latency_l = 3;
    else if (a.units == "wide") u.cuda = 1, u.ldst = 2;
    const WarpFairness f = parse_warp_fairness(a.fairness).value_or(WarpFairness::none);
    std::cout << "units,fairness,W,rep,explicit_worst,explicit_best,explicit_ms,states,peak,bounds_worst,bounds_best,"
                 "worst_lower,worst_upper,agree\n";
    int compared = 0, exact = 0, skipped = 0;
    bool ok = true;
    for (int w = a.min_w; w <= a.max_w; ++w)
        for (int r = a.min_r; r <= a.max_r; ++r) {
            const WarpProblem p = tr_problem(w, r, f, u);
            WarpEngines bounds_only;
            bounds_only.bounds = true;
            bounds_only.explicit_state = false;
            const WarpCheck b = check_warp(p, w * 16LL, bounds_only);
            Budget budget;
            budget.deadline = Clock::now() + std::chrono::seconds(a.timeout_s);
            const auto t0 = Clock::now();
            const Oracle e = explicit_with_progress(p, a, w, r, budget);
            const long long ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
            const bool answered = !e.worst.stopped && !e.best.stopped;
            bool agree = true;
            if (answered) {
                agree = agrees(b, e);
                ++compared;
                exact += b.worst.exact().has_value();
            } else {
                ++skipped;
            }
            ok = ok && agree && !b.engines_disagree;
            print_row(a, w, r, b, e, answered, ms, agree);
        }
    std::cout << "compared " << compared << ", bounds exact on the worst case for " << exact
              << " of them, explicit out of " << a.timeout_s << " s on " << skipped
              << (ok ? "; all agree" : "; DISAGREEMENT") << '\n';
    return ok ? 0 : 4;
}
