#include "solver/block/auto_engine.hpp"

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <optional>
#include <sstream>

#include "encode/block/block_problem.hpp"
#include "bounds/abstraction/bounds.hpp"
#include "solver/block/answer_merge.hpp"
#include "solver/block/wcrt_smt.hpp"

namespace gpuwcrt {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

bool has_ranges(const Workload& w) {
    return std::any_of(w.ops.begin(), w.ops.end(), [](const Operation& op) {
        return !op.time.is_point() || (op.issue.kind == IssueSpec::Kind::at && !op.issue.at.is_point());
    });
}

// Wall clock as "1.23 s", from integer milliseconds (no floating point anywhere in the engines).
std::string seconds_since(Clock::time_point t0) {
    const long long ms = std::chrono::duration_cast<milliseconds>(Clock::now() - t0).count();
    std::ostringstream s;
    s << ms / 1000 << '.' << std::setw(2) << std::setfill('0') << (ms % 1000) / 10 << " s";
    return s.str();
}

class Run {
public:
    Run(const Workload& w, const std::vector<int>& ops, const EngineOptions& o, const Budget& budget,
        const AutoOptions& a)
        : w_(w), ops_(ops), o_(o), budget_(budget), a_(a), start_(Clock::now()) {
        r_.wcrt.resize(w.ops.size());
        for (std::size_t i = 0; i < w.ops.size(); ++i) {
            r_.wcrt[i].op = static_cast<int>(i);
            r_.wcrt[i].unknown_reason = "no engine decided it";
        }
    }

    bool out_of_time() const { return budget_.expired(); }

    bool settled(int op) const {
        const WcrtAnswer& x = r_.wcrt[op];
        return a_.settled ? a_.settled(x) : x.status == WcrtStatus::exact;
    }
    std::vector<int> open() const {
        std::vector<int> out;
        for (int op : ops_)
            if (!settled(op)) out.push_back(op);
        return out;
    }
    void take(const std::vector<WcrtAnswer>& answers, const std::string& engine) {
        for (int op = 0; op < static_cast<int>(answers.size()); ++op) absorb(w_, r_.wcrt[op], answers[op], engine);
    }
    void step(const std::string& line) {
        r_.steps.push_back(line);
        if (a_.progress) a_.progress(line);
    }
    std::string open_text() const {
        return std::to_string(open().size()) + " of " + std::to_string(ops_.size()) + " open";
    }

    const Workload& w_;
    const std::vector<int>& ops_;
    const EngineOptions& o_;
    const Budget& budget_;
    const AutoOptions& a_;
    Clock::time_point start_;
    AutoResult r_;
};

// The abstraction: with point times only a first, cheap pass (the exact engine follows), with
// intervals or windows half the budget (the only upper bounds; the exact engine's grid search
// follows for lower bounds). Returns the refusal's message, if it refused.
std::optional<InputError> bounds_step(Run& run, bool ranges) {
    const Clock::time_point t0 = Clock::now();
    BoundsOptions b;
    if (!ranges) b.max_states = 16;
    try {
        BoundsResult r = abstraction_bounds(run.w_, run.o_, run.budget_.slice(1, ranges ? 2 : 4), b);
        run.r_.stats.scenarios += r.stats.scenarios;
        run.r_.stats.abstract_states += r.stats.abstract_states;
        run.take(r.wcrt, "bounds");
        run.step("bounds: " + seconds_since(t0) + ", " + run.open_text());
    } catch (const InputError& e) {
        run.step("bounds: not applicable (" + e.message() + ")");
        return e;
    }
    return std::nullopt;
}

// Returns the refusal, if the exact engine refused the workload.
std::optional<InputError> exact_step(Run& run, bool smt_follows) {
    const Clock::time_point t0 = Clock::now();
    const Budget budget = run.budget_.slice(smt_follows ? 4 : 1, smt_follows ? 5 : 1);
    try {
        ExactResult r = exact_wcrt(run.w_, run.o_, budget, {},
                                   run.a_.progress ? ExactProgress(run.a_.progress) : ExactProgress{});
        run.r_.exact = r.stats;
        run.take(r.wcrt, "exact");
        run.step("exact: " + seconds_since(t0) + ", " + std::to_string(r.stats.states) + " states" +
                 (r.complete ? "" : " (stopped)") + ", " + run.open_text());
    } catch (const InputError& e) {
        run.step("exact: not applicable (" + e.message() + ")");
        return e;
    }
    return std::nullopt;
}

// Returns the refusal, if the SMT engine refused the workload (e.g. round-robin with ranges).
std::optional<InputError> smt_step(Run& run, const BlockProblem& p) {
    std::vector<int> open = run.open();
    for (std::size_t i = 0; i < open.size() && !run.out_of_time(); ++i) {
        const Clock::time_point t0 = Clock::now();
        const Budget budget = run.budget_.slice(1, static_cast<long long>(open.size() - i));
        EngineStats st;
        WcrtAnswer a;
        try {
            a = smt_maximise(run.w_, p, open[i], run.o_, budget, st, run.a_.progress);
        } catch (const InputError& e) {
            run.step("smt: not applicable (" + e.message() + ")");
            return e;
        }
        run.r_.stats.solver_calls += st.solver_calls;
        std::vector<WcrtAnswer> one(run.w_.ops.size());
        for (std::size_t k = 0; k < one.size(); ++k) one[k].op = static_cast<int>(k);
        one[open[i]] = a;
        run.take(one, "smt");
        run.step("smt on '" + run.w_.ops[open[i]].name + "': " + seconds_since(t0) + ", " + to_string(a.status));
    }
    return std::nullopt;
}

}  // namespace

AutoResult auto_wcrt(const Workload& w, const std::vector<int>& ops, const EngineOptions& o, const Budget& budget,
                     const AutoOptions& a) {
    Run run(w, ops, o, budget, a);
    std::optional<BlockProblem> p;
    std::optional<InputError> smt_refused;
    try {
        p = make_block_problem(w);
    } catch (const InputError& e) {
        smt_refused = e;
    }
    const bool ranges = has_ranges(w);
    // Point times: a cheap abstraction pass, then the exact engine, then SMT on what is open.
    // Intervals and windows: the abstraction (the upper bounds) gets half the budget, then the
    // exact engine's and the SMT engine's maxima over the grid (replayed lower bounds, exact
    // only where they meet an upper bound: docs/verification-engines.md).
    const std::optional<InputError> bounds_refused = bounds_step(run, ranges);
    std::optional<InputError> exact_refused;
    if (!run.open().empty() && !run.out_of_time()) exact_refused = exact_step(run, p.has_value());
    if (p && !run.open().empty() && !run.out_of_time()) smt_refused = smt_step(run, *p);
    if (ranges && bounds_refused && exact_refused && smt_refused)
        throw InputError(bounds_refused->where(),
                         "no engine ranges over this workload: it has block-time intervals or issue windows; "
                         "--engine bounds refuses it (" + bounds_refused->message() + "), --engine exact too (" +
                         exact_refused->message() + ") and --engine smt too (" + smt_refused->message() + ")");
    for (int op : run.open())
        if (run.out_of_time() && run.r_.wcrt[op].status != WcrtStatus::exact) run.r_.wcrt[op].unknown_reason = "timeout";
    run.r_.stats.elapsed = std::chrono::duration_cast<milliseconds>(Clock::now() - run.start_);
    return std::move(run.r_);
}

}  // namespace gpuwcrt
