#include "solver/enumerate.hpp"

#include <optional>

#include "encode/block_problem.hpp"
#include "sim/simulate.hpp"
#include "solver/fixed_times.hpp"

namespace gpuwcrt {
namespace {

using Clock = std::chrono::steady_clock;

// May `op` be launched next, given which operations are launched? Stream order, and no
// unlaunched operation with a strictly earlier static issue time.
bool launchable(const Workload& w, const std::vector<char>& placed, int op) {
    const Operation& o = w.ops[op];
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        if (placed[i] || static_cast<int>(i) == op) continue;
        const Operation& x = w.ops[i];
        if (x.stream == o.stream && x.position < o.position) return false;
        if (x.issue.is_static() && o.issue.is_static() && x.issue.at.hi < o.issue.at.lo) return false;
    }
    return true;
}

bool launch_orders(const Workload& w, std::vector<char>& placed, std::vector<long>& rank, long next,
                   const std::function<bool(const std::vector<long>&)>& visit) {
    if (next == static_cast<long>(w.ops.size())) return visit(rank);
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        if (placed[i] || !launchable(w, placed, static_cast<int>(i))) continue;
        placed[i] = 1;
        rank[i] = next;
        bool go_on = launch_orders(w, placed, rank, next + 1, visit);
        placed[i] = 0;
        if (!go_on) return false;
    }
    return true;
}

// The busy-time bounds need the SMT engine's integer view; workloads outside its scope
// (block-time intervals, issue windows) have none.
std::optional<BlockProblem> busy_time_view(const Workload& w) {
    try {
        return make_block_problem(w);
    } catch (const InputError&) {
        return std::nullopt;
    }
}

}  // namespace

void for_each_launch_order(const Workload& w, const std::function<bool(const std::vector<long>&)>& visit) {
    std::vector<char> placed(w.ops.size(), 0);
    std::vector<long> rank(w.ops.size(), 0);
    launch_orders(w, placed, rank, 0, visit);
}

EnumerationResult enumerate_wcrt(const Workload& w, const EngineOptions& o,
                                 const std::function<void(long long)>& progress) {
    // Every block at `hi` and every issue at `lo` would be one scenario, not all (SPEC §5).
    require_fixed_times(w);
    const auto t0 = Clock::now();
    EnumerationResult res;
    res.wcrt.resize(w.ops.size());
    for (std::size_t i = 0; i < w.ops.size(); ++i) res.wcrt[i].op = static_cast<int>(i);
    bool timed_out = false;

    auto record = [&](const Schedule& s) {
        ++res.stats.scenarios;
        for (std::size_t i = 0; i < w.ops.size(); ++i) {
            const Time r = s.response(static_cast<int>(i));
            if (!res.wcrt[i].wcrt || r > *res.wcrt[i].wcrt) {
                res.wcrt[i].wcrt = r;
                res.wcrt[i].witness = witness_of(w, s);
            }
        }
        // The clock after every scenario: one simulation can take long on a large workload.
        if (o.timeout && Clock::now() - t0 >= *o.timeout) timed_out = true;
        if (progress && res.stats.scenarios % 4096 == 0) progress(res.stats.scenarios);
    };

    for_each_launch_order(w, [&](const std::vector<long>& rank) {
        Scenario sc;
        sc.rank = rank;
        sc.policy = o.policy;
        if (o.policy != Policy::chooser) {
            record(simulate(w, sc));
            return !timed_out;
        }
        // Depth-first over SM choices: replay a prefix of choices, extend with the first
        // option, then advance the deepest choice that has an untried option left.
        std::vector<int> choice, options;
        for (;;) {
            std::size_t depth = 0;
            sc.choose = [&](const PlacementRequest& req) {
                const auto& cand = o.symmetry_breaking ? req.distinct : req.fitting;
                if (depth == choice.size()) {
                    choice.push_back(0);
                    options.push_back(static_cast<int>(cand.size()));
                }
                return cand[choice[depth++]];
            };
            record(simulate(w, sc));
            if (timed_out) return false;
            while (!choice.empty() && choice.back() + 1 >= options.back()) {
                choice.pop_back();
                options.pop_back();
            }
            if (choice.empty()) return true;
            ++choice.back();
        }
    });

    res.complete = !timed_out;
    const std::optional<BlockProblem> p = busy_time_view(w);
    for (auto& a : res.wcrt) {
        a.status = res.complete ? WcrtStatus::exact : WcrtStatus::unknown;
        if (!res.complete) a.unknown_reason = "timeout";
        if (!p) {
            if (res.complete) a.upper_bound = a.wcrt;
            continue;
        }
        const Time upper = p->op_response_upper_bound(a.op);
        if (a.wcrt) require_within_bound(w, a.op, *a.wcrt, upper);
        a.upper_bound = res.complete ? a.wcrt : std::optional<Time>(upper);
    }
    res.stats.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0);
    return res;
}

}  // namespace gpuwcrt
