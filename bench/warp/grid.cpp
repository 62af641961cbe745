// Per-instance SMT and explicit times over the ctest cross-check grid (W <= 6, rep <= 4, every
// fairness variant, and the unit variants), worst and best goal separately: shows where the
// SMT engine spends its time. Usage: warp_grid [--timeout S] [--max-warps W] [--max-rep R]
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>

#include "solver/warp/warp_explicit.hpp"
#include "model/warp/warp_tr.hpp"
#include "solver/warp/warp_search.hpp"

using namespace gpuwcrt;
using Clock = std::chrono::steady_clock;

namespace {

long long ms_since(Clock::time_point t0) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
    int timeout_s = 60, min_w = 1, max_w = 6, max_r = 4;
    std::string only;
    bool hint = false;
    std::string logic;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        const int v = std::atoi(argv[i + 1]);
        if (a == "--timeout") timeout_s = v;
        else if (a == "--min-warps") min_w = v;
        else if (a == "--max-warps") max_w = v;
        else if (a == "--max-rep") max_r = v;
        else if (a == "--hint") hint = v != 0;  // start the SMT search at the explicit answer
        else if (a == "--logic") logic = argv[i + 1];
        else if (a == "--only") only = argv[i + 1];  // e.g. "tr/none"
        else if (a == "--param") {                   // a Z3 global parameter, name=value
            const std::string nv = argv[i + 1];
            z3::set_param(nv.substr(0, nv.find('=')).c_str(), nv.substr(nv.find('=') + 1).c_str());
        }
    }
    FermiUnits tr, wide, limited, slow;
    wide.cuda = 1;
    wide.ldst = 2;
    limited.issue_limit = 1;
    slow.latency_l = 3;
    struct Variant {
        std::string name;
        WarpFairness f;
        FermiUnits u;
    };
    const Variant variants[] = {{"tr", WarpFairness::subblock, tr},
                                {"tr", WarpFairness::strict, tr},
                                {"tr", WarpFairness::none, tr},
                                {"wide", WarpFairness::subblock, wide},
                                {"limit1", WarpFairness::subblock, limited},
                                {"slowL", WarpFairness::subblock, slow},
                                {"slowL", WarpFairness::none, slow}};
    std::cout << "variant,fairness,W,rep,worst,best,explicit_ms,smt_worst_ms,smt_best_ms,smt_checks\n";
    long long total = 0;
    for (const auto& v : variants)
        for (int w = min_w; w <= max_w; ++w)
            for (int r = 1; r <= max_r; ++r) {
                if (!only.empty() && only != v.name + "/" + to_string(v.f)) continue;
                const WarpProblem p = tr_problem(w, r, v.f, v.u);
                auto t0 = Clock::now();
                const WarpExtreme ew = explicit_extreme(p, WarpGoal::worst), eb = explicit_extreme(p, WarpGoal::best);
                const long long te = ms_since(t0);
                SolverOptions o;
                o.timeout = std::chrono::seconds(timeout_s);
                o.logic = logic;
                t0 = Clock::now();
                const WarpSmtOutcome sw =
                    smt_worst_makespan(p, o, hint ? std::optional<int>(ew.makespan) : std::nullopt);
                const long long tw = ms_since(t0);
                t0 = Clock::now();
                const WarpSmtOutcome sb =
                    smt_best_makespan(p, o, hint ? std::optional<int>(eb.makespan) : std::nullopt);
                const long long tb = ms_since(t0);
                total += tw + tb;
                const bool agree = sw.makespan == ew.makespan && sb.makespan == eb.makespan;
                std::cout << v.name << ',' << to_string(v.f) << ',' << w << ',' << r << ',' << ew.makespan << ','
                          << eb.makespan << ',' << te << ',' << tw << (sw.makespan ? "" : "(unknown)") << ',' << tb
                          << (sb.makespan ? "" : "(unknown)") << ',' << sw.checks + sb.checks
                          << (agree ? "" : ",DISAGREE") << '\n'
                          << std::flush;
            }
    std::cout << "total SMT ms: " << total << '\n';
}
