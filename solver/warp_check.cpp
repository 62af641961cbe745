#include "solver/warp_check.hpp"

#include <new>
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

// The per-warp rows take W × makespan bytes and steps: checked against the memory budget
// before they exist, and against the deadline while they are built and checked.
WarpSchedule validated(const WarpProblem& p, const std::vector<WarpIssue>& issues, int makespan,
                       const std::string& what, const WarpBudget& budget) {
    budget.check(static_cast<std::size_t>(p.warps) * (issues.size() + 48));
    WarpSchedule s = schedule_from_issues(p, issues, &budget);
    const std::string v = warp_schedule_violation(p, s, &budget);
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

void run_explicit(WarpCheck& out, const WarpProblem& problem, WarpBudget& budget) {
    const auto t0 = std::chrono::steady_clock::now();
    WarpEngineRun run{"explicit", {}, {}, {}, {}, 0, 0, {}, 0};
    WarpSchedule worst_schedule, best_schedule;
    const auto stopped = [&](WarpStopReason r) {
        if (run.unknown_reason.empty()) run.unknown_reason = to_string(r);
    };
    // One goal; true when it was decided exactly (its schedule validated).
    const auto extreme = [&](WarpGoal goal, const char* phase, const char* what, std::optional<int>& exact,
                             std::optional<int>& bound, WarpSchedule& schedule) {
        budget.phase = phase;
        const WarpExtreme e = explicit_extreme(problem, goal, budget);
        run.states += e.states;
        if (e.stopped) {
            stopped(*e.stopped);
            bound = e.bound;
            return false;
        }
        schedule = validated(problem, e.issues, e.makespan, what, budget);
        exact = bound = e.makespan;
        return true;
    };
    // The verdict needs only the worst case: an exact worst case stands when the best runs out.
    try {
        if (extreme(WarpGoal::worst, "explicit engine, worst case", "explicit worst-case", run.worst, run.worst_bound,
                    worst_schedule))
            extreme(WarpGoal::best, "explicit engine, best case", "explicit best-case", run.best, run.best_bound,
                    best_schedule);
    } catch (const WarpStopped& e) {  // from validated: no room for the per-warp rows
        stopped(e.reason);
    } catch (const std::bad_alloc&) {
        stopped(WarpStopReason::memory);
    }
    run.milliseconds = elapsed_ms(t0);
    merge(out, run, worst_schedule, best_schedule);
}

std::string smt_reason(const WarpSmtOutcome& o) {
    if (o.last.reason == UnknownReason::timeout) return "timeout";
    // Ours, or Z3's own memory limit ("max. memory exceeded") set by --max-memory.
    if (o.last.reason_text.find("memory") != std::string::npos) return to_string(WarpStopReason::memory);
    return to_string(o.last.reason) + (o.last.reason_text.empty() ? "" : ": " + o.last.reason_text);
}

// A schedule an engine returned without a proof still bounds the extreme, once validated.
std::optional<int> bound_of(const WarpSmtOutcome& o) { return o.issues.empty() ? std::nullopt : std::optional<int>(o.incumbent); }

void run_smt(WarpCheck& out, const WarpProblem& problem, const SolverOptions& options, WarpBudget& budget) {
    const auto t0 = std::chrono::steady_clock::now();
    budget.phase = "SMT engine, worst case";
    const WarpSmtOutcome w = smt_worst_makespan(problem, options, {}, &budget);
    budget.phase = "SMT engine, best case";
    const WarpSmtOutcome b = smt_best_makespan(problem, options, {}, &budget);
    WarpEngineRun run{"smt", w.makespan, b.makespan, bound_of(w), bound_of(b), 0, w.checks + b.checks, {}, 0};
    for (const auto* o : {&w, &b})
        if (!o->makespan) run.unknown_reason = smt_reason(*o);
    WarpSchedule worst_schedule, best_schedule;
    try {
        if (!w.issues.empty()) worst_schedule = validated(problem, w.issues, w.incumbent, "SMT worst-case", budget);
        if (!b.issues.empty()) best_schedule = validated(problem, b.issues, b.incumbent, "SMT best-case", budget);
    } catch (const WarpStopped& e) {  // no room to check the schedules: nothing from this engine counts
        run = WarpEngineRun{"smt", {}, {}, {}, {}, 0, run.checks, to_string(e.reason), 0};
    }
    run.milliseconds = elapsed_ms(t0);
    merge(out, run, worst_schedule, best_schedule);
    // An incumbent is a real schedule: it may still bound what an exact engine found.
    if (out.worst && run.worst_bound && *run.worst_bound > *out.worst) out.engines_disagree = true;
    if (out.best && run.best_bound && *run.best_bound < *out.best) out.engines_disagree = true;
}

void conclude(WarpCheck& out) {
    if (!out.worst) {
        std::optional<int> bound;
        std::string why;
        for (const auto& r : out.runs) {
            if (r.worst_bound && (!bound || *r.worst_bound > *bound)) bound = r.worst_bound;
            if (!r.unknown_reason.empty() && why.find(r.unknown_reason) == std::string::npos)
                why += (why.empty() ? "" : ", ") + r.unknown_reason;
        }
        out.outcome = WarpOutcome::unknown;
        out.verdict = "unknown (" + (why.empty() ? std::string("no engine answered") : why) +
                      (bound ? "; worst case >= " + std::to_string(*bound) : "") + ")";
        out.worst_schedule = {};
    } else if (!out.ft) {
        out.outcome = WarpOutcome::no_conjecture;
        out.verdict = "no conjecture for this program";
    } else {
        out.outcome = verdict_refutes(*out.ft, *out.worst) ? WarpOutcome::refuted : WarpOutcome::holds;
        out.verdict = conjecture_verdict(*out.ft, *out.worst);
    }
}

}  // namespace

WarpCheck check_warp(const WarpProblem& problem, long long threads, const WarpEngines& engines, WarpBudget& budget) {
    WarpCheck out;
    out.threads = threads;
    out.problem = problem;
    if (is_tr_program(problem.machine, problem.program)) out.ft = finishing_time_conjecture(problem.warps, problem.rep);
    if (engines.explicit_state) run_explicit(out, problem, budget);
    if (engines.smt) run_smt(out, problem, engines.smt_options, budget);
    conclude(out);
    return out;
}

WarpCheck check_warp(const WarpProblem& problem, long long threads, const WarpEngines& engines) {
    WarpBudget budget;
    return check_warp(problem, threads, engines, budget);
}

void smt_cross_check(WarpCheck& c, const CrossCheckLimits& limits, WarpBudget& budget) {
    const long long cells = static_cast<long long>(c.problem.warps) * static_cast<long long>(c.problem.instructions().size());
    if (!c.worst || !c.best) {
        c.cross_check = "skipped (no exact answer to confirm)";
        return;
    }
    if (cells > limits.max_cells) {
        c.cross_check = "skipped (W x program length = " + std::to_string(cells) + " > " +
                        std::to_string(limits.max_cells) + "; --engine both to insist)";
        return;
    }
    const auto saved = budget.deadline;
    std::chrono::milliseconds time = limits.time;
    if (const auto left = budget.remaining(); left && *left < time) time = *left;
    budget.deadline = WarpBudget::Clock::now() + time;
    run_smt(c, c.problem, SolverOptions{}, budget);
    budget.deadline = saved;
    const WarpEngineRun& r = c.runs.back();
    if (c.engines_disagree) c.cross_check = "DISAGREES (smt worst " + (r.worst ? std::to_string(*r.worst) : "-") +
                                            ", best " + (r.best ? std::to_string(*r.best) : "-") + "): a bug, not a result";
    else if (r.worst && r.best) c.cross_check = "agrees (" + std::to_string(r.milliseconds) + " ms)";
    else c.cross_check = "no answer within its " + std::to_string(time.count()) + " ms budget (" +
                         r.unknown_reason + "; --engine both to insist)";
    conclude(c);
}

}  // namespace gpuwcrt
