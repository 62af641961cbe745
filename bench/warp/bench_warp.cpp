// SMT (order-encoded counts, QF_FD) vs explicit-state engine on the warp model of docs/theory/semantics.md §8, same
// run. Prints one Markdown row per (W, rep): exact makespans, medians of the wall times, states, and the SMT/explicit
// time ratio. An SMT timeout is printed as such, never as a makespan.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "bench/warp/timing.hpp"
#include "solver/warp/warp_explicit.hpp"
#include "model/warp/warp_tr.hpp"
#include "solver/warp/warp_search.hpp"

using namespace gpuwcrt;
using bench::Clock;
using bench::median;
using bench::us_since;

int main(int argc, char** argv) {
    int runs = 5, smt_runs = 3, timeout_s = 30;
    std::vector<std::pair<int, int>> points{{4, 2}, {8, 4}, {16, 8}, {32, 4}, {64, 8}};
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        const int v = std::atoi(argv[i + 1]);
        if (a == "--runs") runs = v;
        else if (a == "--smt-runs") smt_runs = v;
        else if (a == "--timeout") timeout_s = v;
    }
    std::cout << "| W | rep | worst | best | explicit µs (median of " << runs << ") | states | SMT µs (median of "
              << smt_runs << ", budget " << timeout_s << " s per goal) | SMT worst / best | SMT / explicit |\n"
              << "|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& [w, rep] : points) {
        const WarpProblem p = tr_problem(w, rep);
        std::vector<long long> et;
        WarpExtreme ew, eb;
        for (int r = 0; r < runs; ++r) {
            const auto t0 = Clock::now();
            ew = explicit_extreme(p, WarpGoal::worst);
            eb = explicit_extreme(p, WarpGoal::best);
            et.push_back(us_since(t0));
        }
        std::vector<long long> st;
        std::string smt = "?";
        bool timed_out = false;
        for (int r = 0; r < smt_runs && !timed_out; ++r) {
            SolverOptions o;
            o.timeout = std::chrono::seconds(timeout_s);
            const auto t0 = Clock::now();
            const WarpSmtOutcome sw = smt_worst_makespan(p, o);
            const WarpSmtOutcome sb = smt_best_makespan(p, o);
            st.push_back(us_since(t0));
            auto show = [](const WarpSmtOutcome& x, const char* rel) {
                return x.makespan ? std::to_string(*x.makespan)
                                  : "unknown (" + std::string(rel) + std::to_string(x.incumbent) + ")";
            };
            smt = show(sw, ">= ") + " / " + show(sb, "<= ");
            timed_out = !sw.makespan || !sb.makespan;
            if ((sw.makespan && *sw.makespan != ew.makespan) || (sb.makespan && *sb.makespan != eb.makespan)) {
                std::cerr << "engines disagree at W=" << w << " rep=" << rep << '\n';
                return 4;
            }
        }
        const long long e = median(et), s = median(st);
        std::cout << "| " << w << " | " << rep << " | " << ew.makespan << " | " << eb.makespan << " | " << e << " | "
                  << ew.states + eb.states << " | " << (timed_out ? ">= " : "") << s
                  << (timed_out ? " (timeout, 1 run)" : "") << " | " << smt << " | " << (timed_out ? ">= " : "")
                  << s / std::max(1LL, e) << "x |\n"
                  << std::flush;
    }
}
