// Benchmark of the exact engine (solver/exact/) on one workload of the bench/wcrt family
// (bench/README.md):
//   bench_exact N RUN [--cap S] [--threads T] [--prune 0|1] [--beam B] [--level-cap W] [--ref-cap S] [--smt-cap S]
//   [--enum-cap S] bench_exact pipeline RUN …: the pipeline family (model/generate/pipeline_workload.hpp, defaults: 4
//   streams x 4 iterations x copy-in/2 kernels/copy-out = 64 operations), seed RUN
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

#include "bounds/engine_options.hpp"
#include "bounds/engine_stats.hpp"
#include "encode/block/block_problem.hpp"
#include "model/generate/pipeline_workload.hpp"
#include "model/generate/random_workload.hpp"
#include "solver/block/enumerate/enumerate.hpp"
#include "solver/exact/explorer.hpp"
#include "solver/block/smt/wcrt_smt.hpp"

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

struct Args {
    bool pipeline = false;
    int run = 0;
    long long cap_s = 600, smt_cap_s = 0, enum_cap_s = 0, ref_cap_s = 0, level_cap = 0;
    int beam = 0, threads = 0;
    bool prune = true;
};

// False on an unknown option (reported on stderr).
bool parse_args(int argc, char** argv, Args& a) {
    a.pipeline = std::string(argv[1]) == "pipeline";
    a.run = std::stoi(argv[2]);
    for (int i = 3; i + 1 < argc; i += 2) {
        const std::string o = argv[i];
        if (o == "--cap") a.cap_s = std::stoll(argv[i + 1]);
        else if (o == "--beam") a.beam = std::stoi(argv[i + 1]);
        else if (o == "--level-cap") a.level_cap = std::stoll(argv[i + 1]);
        else if (o == "--ref-cap") a.ref_cap_s = std::stoll(argv[i + 1]);
        else if (o == "--smt-cap") a.smt_cap_s = std::stoll(argv[i + 1]);
        else if (o == "--enum-cap") a.enum_cap_s = std::stoll(argv[i + 1]);
        else if (o == "--threads") a.threads = std::stoi(argv[i + 1]);
        else if (o == "--prune") a.prune = std::stoi(argv[i + 1]) != 0;
        else {
            std::cerr << "unknown option " << o << "\n";
            return false;
        }
    }
    return true;
}

// The SMT engine on the same workload; false on a mismatch with an exact answer.
bool compare_smt(const Workload& w, const ExactResult& r, long long cap_s, int n) {
    const auto t0 = Clock::now();
    const BlockProblem p = make_block_problem(w);
    EngineStats st;
    int decided = 0;
    const Budget budget = Budget::for_timeout(std::chrono::milliseconds(cap_s * 1000));
    for (std::size_t op = 0; op < w.ops.size(); ++op) {
        const WcrtAnswer a = smt_maximise(w, p, static_cast<int>(op), EngineOptions{}, budget, st);
        if (a.status == WcrtStatus::exact) {
            ++decided;
            if (r.wcrt[op].status == WcrtStatus::exact && *a.lower != *r.wcrt[op].lower) {
                std::cerr << "MISMATCH with SMT on " << w.ops[op].name << "\n";
                return false;
            }
        }
    }
    std::cout << " | SMT " << seconds(ms_since(t0)) << " s, " << decided << "/" << n << " exact";
    return true;
}

// The enumeration on the same workload; false on a mismatch with an exact answer.
bool compare_enumeration(const Workload& w, const ExactResult& r, long long cap_s, bool after_smt) {
    const auto t0 = Clock::now();
    const EnumerationResult e =
        enumerate_wcrt(w, EngineOptions{}, Budget::for_timeout(std::chrono::milliseconds(cap_s * 1000)));
    std::cout << (after_smt ? ", " : " | ") << "enumeration " << seconds(ms_since(t0)) << " s"
              << (e.complete ? "" : " (stopped)");
    if (e.complete)
        for (std::size_t op = 0; op < w.ops.size(); ++op)
            if (r.wcrt[op].status == WcrtStatus::exact && *e.wcrt[op].lower != *r.wcrt[op].lower) {
                std::cerr << "MISMATCH with enumeration on " << w.ops[op].name << "\n";
                return false;
            }
    return true;
}

// Two decimals, rounded up: a ratio printed never looks better.
std::string two_decimals_up(const Time& t) {
    const Time x = t * 100;
    BigInt q = boost::multiprecision::numerator(x) / boost::multiprecision::denominator(x);
    if (Time(q) < x) ++q;
    std::string s = q.str();
    while (s.size() < 3) s.insert(s.begin(), '0');
    return s.substr(0, s.size() - 2) + "." + s.substr(s.size() - 2);
}

// The busy-time bound (docs/theory/encoding.md, "Horizon") over the beam's lower bound.
void print_busy_time_ratios(const Workload& w, const ExactResult& r) {
    const BlockProblem p = make_block_problem(w);
    std::vector<Time> ratios;
    for (std::size_t i = 0; i < w.ops.size(); ++i)
        if (r.wcrt[i].lower)
            ratios.push_back(p.response_upper_bound(static_cast<int>(p.index_of_op(static_cast<int>(i)))) /
                             *r.wcrt[i].lower);
    std::sort(ratios.begin(), ratios.end());
    if (!ratios.empty())
        std::cout << " | busy-time UB/LB median " << two_decimals_up(ratios[ratios.size() / 2]) << ", max "
                  << two_decimals_up(ratios.back());
}

// A second exact run in the same process, the reference of a beam row.
struct Reference {
    std::vector<std::optional<Time>> wcrt;
    std::string name, time;
};

Reference exact_reference(const Workload& w, long long cap_s) {
    Reference ref{std::vector<std::optional<Time>>(w.ops.size()), "exact", ""};
    const ExactResult x = exact_wcrt(w, EngineOptions{}, Budget::for_timeout(std::chrono::milliseconds(cap_s * 1000)));
    if (x.complete)
        for (std::size_t i = 0; i < w.ops.size(); ++i) ref.wcrt[i] = x.wcrt[i].lower;
    ref.time = seconds(x.stats.elapsed.count()) + (x.complete ? "" : " (stopped)");
    return ref;
}

void print_beam_vs_reference(const Workload& w, const ExactResult& r, const Reference& ref) {
    int equal = 0, below = 0;
    Time worst_gap = 0;
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        if (!ref.wcrt[i] || !r.wcrt[i].lower) continue;
        if (*r.wcrt[i].lower == *ref.wcrt[i]) ++equal;
        else ++below;
        worst_gap = std::max(worst_gap, Time(*ref.wcrt[i] - *r.wcrt[i].lower));
    }
    std::cout << " | vs " << ref.name << " (" << ref.time << " s): " << equal << " equal, " << below
              << " below, max gap " << human_string(worst_gap);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: bench_exact N RUN [--cap S] [--threads T] [--prune 0|1] [--beam B] [--smt-cap S] "
                     "[--enum-cap S]\n";
        return 2;
    }
    Args a;
    if (!parse_args(argc, argv, a)) return 2;
    RandomWorkloadSpec spec;  // the bench/wcrt family: n kernels, one stream each, issued at 0
    spec.kernels = a.pipeline ? 0 : std::stoi(argv[1]);
    spec.streams = spec.kernels;
    const Workload w = a.pipeline ? pipeline_workload({}, static_cast<std::uint64_t>(a.run))
                                  : random_workload(spec, 1000 * spec.kernels + a.run);
    const int n = static_cast<int>(w.ops.size());
    EngineOptions o;
    o.threads = a.threads;
    ExactSearchOptions limits;
    limits.beam = a.beam;
    limits.beam_level = a.level_cap;
    limits.prune = a.prune;
    const ExactResult r = exact_wcrt(w, o, Budget::for_timeout(std::chrono::milliseconds(a.cap_s * 1000)), limits);
    const long long rss = peak_rss_mb();
    int exact = 0;
    for (const WcrtAnswer& x : r.wcrt) exact += x.status == WcrtStatus::exact;
    std::cout << "| " << (a.pipeline ? "pipeline " : "") << n << " | " << a.run << " | "
              << (a.beam ? "beam " + std::to_string(a.beam) : "exact") << " | " << seconds(r.stats.elapsed.count())
              << (r.complete || a.beam ? "" : " (stopped)") << " | " << r.stats.states << " | "
              << r.stats.peak_level_states << " | " << rss << " MB | " << exact << "/" << n;
    // Reference values in the same process: a second exact run (for beam rows), SMT, enumeration.
    Reference ref{std::vector<std::optional<Time>>(w.ops.size()), "", ""};
    if (a.beam && a.ref_cap_s > 0) ref = exact_reference(w, a.ref_cap_s);
    if (a.smt_cap_s > 0 && !compare_smt(w, r, a.smt_cap_s, n)) return 1;
    if (a.enum_cap_s > 0 && !compare_enumeration(w, r, a.enum_cap_s, a.smt_cap_s > 0)) return 1;
    bool in_smt_scope = true;  // the busy-time bound needs the SMT engine's integer view
    try {
        make_block_problem(w);
    } catch (const InputError&) {
        in_smt_scope = false;
        if (a.beam) std::cout << " | busy-time bound n/a (copies, priorities)";
    }
    if (a.beam && in_smt_scope) print_busy_time_ratios(w, r);
    if (a.beam && a.ref_cap_s > 0) print_beam_vs_reference(w, r, ref);
    std::cout << " | " << r.stats.expansions << " expansions, " << r.stats.dominated << " merged/dominated, "
              << r.stats.pruned << " pruned (seed " << seconds(r.stats.seed_elapsed.count()) << " s), "
              << r.stats.threads << " threads |\n";
    return 0;
}
