#include "solver/warp_check.hpp"

#include <chrono>
#include <stdexcept>

#include "bounds/warp_explicit.hpp"
#include "bounds/warp_schedule_check.hpp"
#include "bounds/warp_tr.hpp"
#include "solver/warp_search.hpp"

namespace gpuwcrt {
namespace {

long long elapsed_ms(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - since).count();
}

WarpSchedule validated(const WarpProblem& p, const std::vector<WarpIssue>& issues, int makespan,
                       const std::string& what) {
    WarpSchedule s = schedule_from_issues(p, issues);
    const std::string v = warp_schedule_violation(p, s);
    if (!v.empty()) throw std::logic_error(what + " schedule breaks the model: " + v);
    if (s.makespan() != makespan)
        throw std::logic_error(what + " schedule has makespan " + std::to_string(s.makespan()) + ", claimed " +
                               std::to_string(makespan));
    return s;
}

// Takes a run's schedules when the check has none yet; flags a disagreement otherwise.
void merge(WarpCheck& out, const WarpEngineRun& run, const WarpSchedule& worst, const WarpSchedule& best) {
    if (run.worst) {
        if (out.worst && *out.worst != *run.worst) out.engines_disagree = true;
        if (!out.worst) { out.worst = run.worst; out.worst_schedule = worst; }
    }
    if (run.best) {
        if (out.best && *out.best != *run.best) out.engines_disagree = true;
        if (!out.best) { out.best = run.best; out.best_schedule = best; }
    }
    out.runs.push_back(run);
}

}  // namespace

WarpCheck check_warp(const WarpProblem& problem, long long threads, const WarpEngines& engines) {
    WarpCheck out;
    out.threads = threads;
    out.problem = problem;
    if (is_tr_program(problem.machine, problem.program)) out.ft = finishing_time_conjecture(problem.warps, problem.rep);

    if (engines.explicit_state) {
        const auto t0 = std::chrono::steady_clock::now();
        const WarpExtreme w = explicit_extreme(problem, WarpGoal::worst);
        const WarpExtreme b = explicit_extreme(problem, WarpGoal::best);
        WarpEngineRun run{"explicit", w.makespan, b.makespan, w.makespan, b.makespan, w.states + b.states, 0, {}, 0};
        run.milliseconds = elapsed_ms(t0);
        merge(out, run, validated(problem, w.issues, w.makespan, "explicit worst-case"),
              validated(problem, b.issues, b.makespan, "explicit best-case"));
    }
    if (engines.smt) {
        const auto t0 = std::chrono::steady_clock::now();
        const WarpSmtOutcome w = smt_worst_makespan(problem, engines.smt_options);
        const WarpSmtOutcome b = smt_best_makespan(problem, engines.smt_options);
        WarpEngineRun run{"smt", w.makespan, b.makespan, w.incumbent, b.incumbent, 0, w.checks + b.checks, {}, 0};
        run.milliseconds = elapsed_ms(t0);
        for (const auto* o : {&w, &b})
            if (!o->makespan)
                run.unknown_reason = to_string(o->last.reason) + (o->last.reason_text.empty() ? "" : ": " + o->last.reason_text);
        merge(out, run, validated(problem, w.issues, w.incumbent, "SMT worst-case"),
              validated(problem, b.issues, b.incumbent, "SMT best-case"));
        // An incumbent is a real schedule: it may still bound what an exact engine found.
        if (out.worst && w.incumbent > *out.worst) out.engines_disagree = true;
        if (out.best && b.incumbent < *out.best) out.engines_disagree = true;
    }

    if (!out.worst) {
        int bound = 0;
        for (const auto& r : out.runs) bound = std::max(bound, r.worst_bound);
        out.outcome = WarpOutcome::unknown;
        out.verdict = "unknown (worst case >= " + std::to_string(bound) + ", solver gave up)";
        out.worst_schedule = {};
    } else if (!out.ft) {
        out.outcome = WarpOutcome::no_conjecture;
        out.verdict = "no conjecture for this program";
    } else {
        out.outcome = verdict_refutes(*out.ft, *out.worst) ? WarpOutcome::refuted : WarpOutcome::holds;
        out.verdict = conjecture_verdict(*out.ft, *out.worst);
    }
    return out;
}

}  // namespace gpuwcrt
