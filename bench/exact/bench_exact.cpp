// Benchmark of the exact engine (solver/exact/) on one workload of the bench/wcrt family
// (bench/README.md):
//   bench_exact N RUN [--cap S] [--threads T] [--prune 0|1] [--beam B] [--level-cap W] [--ref-cap S] [--smt-cap S] [--enum-cap S]
//   bench_exact pipeline RUN …: the pipeline family (model/generate/pipeline_workload.hpp, defaults:
//   4 streams x 4 iterations x copy-in/2 kernels/copy-out = 64 operations), seed RUN
// prints one Markdown row: time, states, peak states per level, peak RSS, kernels exact; with
// --smt-cap / --enum-cap the SMT engine / enumeration on the same workload in the same process
// (any mismatch with an exact answer is exit 1); with --beam the beam lower bounds against the
// busy-time upper bounds and, with --ref-cap, against an exact run in the same process. One
// workload per process, so that the peak RSS is this run's (the exact or beam run comes first).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <string>

#include "encode/block/block_problem.hpp"
#include "model/generate/pipeline_workload.hpp"
#include "model/generate/random_workload.hpp"
#include "solver/block/enumerate.hpp"
#include "solver/exact/explorer.hpp"
#include "solver/block/wcrt_smt.hpp"

using namespace gpuwcrt;
using Clock = std::chrono::steady_clock;

namespace {

long long peak_rss_mb() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss / 1024;  // Linux: KiB
}

std::string seconds(long long ms) {
    return std::to_string(ms / 1000) + "." + std::to_string((ms % 1000) / 100) + std::to_string((ms % 100) / 10);
}

long long ms_since(Clock::time_point t0) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: bench_exact N RUN [--cap S] [--threads T] [--prune 0|1] [--beam B] [--smt-cap S] [--enum-cap S]\n";
        return 2;
    }
    const bool pipeline = std::string(argv[1]) == "pipeline";
    const int run = std::stoi(argv[2]);
    long long cap_s = 600, smt_cap_s = 0, enum_cap_s = 0, ref_cap_s = 0, level_cap = 0;
    int beam = 0, threads = 0;
    bool prune = true;
    for (int i = 3; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--cap") cap_s = std::stoll(argv[i + 1]);
        else if (a == "--beam") beam = std::stoi(argv[i + 1]);
        else if (a == "--level-cap") level_cap = std::stoll(argv[i + 1]);
        else if (a == "--ref-cap") ref_cap_s = std::stoll(argv[i + 1]);
        else if (a == "--smt-cap") smt_cap_s = std::stoll(argv[i + 1]);
        else if (a == "--enum-cap") enum_cap_s = std::stoll(argv[i + 1]);
        else if (a == "--threads") threads = std::stoi(argv[i + 1]);
        else if (a == "--prune") prune = std::stoi(argv[i + 1]) != 0;
        else {
            std::cerr << "unknown option " << a << "\n";
            return 2;
        }
    }
    RandomWorkloadSpec spec;  // the bench/wcrt family: n kernels, one stream each, issued at 0
    spec.kernels = pipeline ? 0 : std::stoi(argv[1]);
    spec.streams = spec.kernels;
    const Workload w = pipeline ? pipeline_workload({}, static_cast<std::uint64_t>(run))
                                : random_workload(spec, 1000 * spec.kernels + run);
    const int n = static_cast<int>(w.ops.size());
    EngineOptions o;
    o.threads = threads;
    ExactSearchOptions limits;
    limits.beam = beam;
    limits.beam_level = level_cap;
    limits.prune = prune;
    const ExactResult r = exact_wcrt(w, o, Budget::for_timeout(std::chrono::milliseconds(cap_s * 1000)), limits);
    const long long rss = peak_rss_mb();
    int exact = 0;
    for (const WcrtAnswer& a : r.wcrt) exact += a.status == WcrtStatus::exact;
    std::cout << "| " << (pipeline ? "pipeline " : "") << n << " | " << run << " | " << (beam ? "beam " + std::to_string(beam) : "exact") << " | "
              << seconds(r.stats.elapsed.count()) << (r.complete || beam ? "" : " (stopped)") << " | " << r.stats.states
              << " | " << r.stats.peak_level_states << " | " << rss << " MB | " << exact << "/" << n;
    // Reference values in the same process: a second exact run (for beam rows), SMT, enumeration.
    std::vector<std::optional<Time>> ref(w.ops.size());
    std::string ref_name, ref_time;
    if (beam && ref_cap_s > 0) {
        const ExactResult x = exact_wcrt(w, {}, Budget::for_timeout(std::chrono::milliseconds(ref_cap_s * 1000)));
        if (x.complete)
            for (std::size_t i = 0; i < w.ops.size(); ++i) ref[i] = x.wcrt[i].wcrt;
        ref_name = "exact";
        ref_time = seconds(x.stats.elapsed.count()) + (x.complete ? "" : " (stopped)");
    }
    if (smt_cap_s > 0) {
        const auto t0 = Clock::now();
        const Budget smt_budget = Budget::for_timeout(std::chrono::milliseconds(smt_cap_s * 1000));
        const BlockProblem p = make_block_problem(w);
        EngineStats st;
        int decided = 0;
        for (std::size_t op = 0; op < w.ops.size(); ++op) {
            const WcrtAnswer a = smt_maximise(w, p, static_cast<int>(op), {}, smt_budget, st);
            if (a.status == WcrtStatus::exact) {
                ++decided;
                if (r.wcrt[op].status == WcrtStatus::exact && *a.wcrt != *r.wcrt[op].wcrt) {
                    std::cerr << "MISMATCH with SMT on " << w.ops[op].name << "\n";
                    return 1;
                }
            }
        }
        std::cout << " | SMT " << seconds(ms_since(t0)) << " s, " << decided << "/" << n << " exact";
    }
    if (enum_cap_s > 0) {
        const auto t0 = Clock::now();
        const EnumerationResult e = enumerate_wcrt(w, {}, Budget::for_timeout(std::chrono::milliseconds(enum_cap_s * 1000)));
        std::cout << (smt_cap_s > 0 ? ", " : " | ") << "enumeration " << seconds(ms_since(t0)) << " s"
                  << (e.complete ? "" : " (stopped)");
        if (e.complete)
            for (std::size_t op = 0; op < w.ops.size(); ++op)
                if (r.wcrt[op].status == WcrtStatus::exact && *e.wcrt[op].wcrt != *r.wcrt[op].wcrt) {
                    std::cerr << "MISMATCH with enumeration on " << w.ops[op].name << "\n";
                    return 1;
                }
    }
    bool in_smt_scope = true;  // the busy-time bound needs the SMT engine's integer view
    try {
        make_block_problem(w);
    } catch (const InputError&) {
        in_smt_scope = false;
        if (beam) std::cout << " | busy-time bound n/a (copies, priorities)";
    }
    if (beam && in_smt_scope) {  // busy-time bound (docs/encoding.md, "Horizon") over the beam's lower bound
        const BlockProblem p = make_block_problem(w);
        std::vector<Time> ratios;
        for (std::size_t i = 0; i < w.ops.size(); ++i)
            if (r.wcrt[i].wcrt)
                ratios.push_back(p.response_upper_bound(static_cast<int>(p.index_of_op(static_cast<int>(i)))) /
                                 *r.wcrt[i].wcrt);
        std::sort(ratios.begin(), ratios.end());
        auto two = [](const Time& t) {  // two decimals, rounded up: a ratio printed never looks better
            const Time x = t * 100;
            BigInt q = boost::multiprecision::numerator(x) / boost::multiprecision::denominator(x);
            if (Time(q) < x) ++q;
            std::string s = q.str();
            while (s.size() < 3) s.insert(s.begin(), '0');
            return s.substr(0, s.size() - 2) + "." + s.substr(s.size() - 2);
        };
        if (!ratios.empty())
            std::cout << " | busy-time UB/LB median " << two(ratios[ratios.size() / 2]) << ", max " << two(ratios.back());
    }
    if (beam && ref_cap_s > 0) {
        int equal = 0, below = 0;
        Time worst_gap = 0;
        for (std::size_t i = 0; i < w.ops.size(); ++i) {
            if (!ref[i] || !r.wcrt[i].wcrt) continue;
            if (*r.wcrt[i].wcrt == *ref[i]) ++equal;
            else ++below;
            worst_gap = std::max(worst_gap, Time(*ref[i] - *r.wcrt[i].wcrt));
        }
        std::cout << " | vs " << ref_name << " (" << ref_time << " s): " << equal << " equal, " << below
                  << " below, max gap " << human_string(worst_gap);
    }
    std::cout << " | " << r.stats.expansions << " expansions, " << r.stats.dominated << " merged/dominated, " << r.stats.pruned << " pruned (seed " << seconds(r.stats.seed_elapsed.count()) << " s), " << r.stats.threads << " threads |\n";
    return 0;
}
