#include "solver/warp/warp_check.hpp"

#include <new>
#include <stdexcept>
#include <utility>

#include "bounds/warp/warp_bounds.hpp"
#include "solver/warp/warp_explicit.hpp"
#include "sim/warp/warp_priority.hpp"
#include "sim/warp/warp_schedule_check.hpp"
#include "model/warp/warp_tr.hpp"
#include "solver/warp/warp_search.hpp"

namespace gpuwcrt {
namespace {

long long elapsed_ms(Budget::Clock::time_point since) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - since).count();
}

// The per-warp rows take W × makespan bytes and steps: checked against the memory budget
// before they exist, and against the deadline while they are built and checked.
WarpSchedule validated(const WarpProblem& p, const std::vector<WarpIssue>& issues, int makespan,
                       const std::string& what, const Budget& budget) {
    budget.check(static_cast<std::size_t>(p.warps) * (issues.size() + 48));
    WarpSchedule s = schedule_from_issues(p, issues, &budget);
    const std::string v = warp_schedule_violation(p, s, &budget);
    if (!v.empty()) throw std::logic_error(what + " schedule breaks the model: " + v);
    if (s.makespan() != makespan)
        throw std::logic_error(what + " schedule has makespan " + std::to_string(s.makespan()) + ", claimed " +
                               std::to_string(makespan));
    return s;
}

// The side of a goal's answer that a legal schedule bounds: from below for the worst case (a
// maximum), from above for the best (a minimum); a proof bounds the other.
void witnessed(WarpAnswer& a, WarpGoal goal, std::optional<long long> v, Provenance by) {
    (goal == WarpGoal::worst ? a.lower : a.upper) = v;
    (goal == WarpGoal::worst ? a.lower_by : a.upper_by) = v ? by : Provenance::none;
}

// Takes a run's exact answer (with its schedule) when the check has none yet; flags a
// disagreement otherwise.
void take(WarpAnswer& into, const WarpAnswer& from, bool& disagree) {
    if (!from.exact()) return;
    if (into.exact()) disagree = disagree || *into.exact() != *from.exact();
    else into = from;
}

// The check keeps the schedules it reports; the run is kept without them.
void merge(WarpCheck& out, WarpEngineRun run) {
    take(out.worst, run.worst, out.engines_disagree);
    take(out.best, run.best, out.engines_disagree);
    run.worst.witness.reset();
    run.best.witness.reset();
    out.runs.push_back(std::move(run));
}

// `worst`/`best`: which goals to search (the bounds engine may have settled the other).
void run_explicit(WarpCheck& out, const WarpProblem& problem, Budget& budget, bool worst = true, bool best = true) {
    const auto t0 = std::chrono::steady_clock::now();
    WarpEngineRun run;
    run.engine = Provenance::explicit_state;
    const auto stopped = [&](StopReason r) {
        if (run.unknown_reason.empty()) run.unknown_reason = to_string(r);
    };
    // One goal; true when it was decided exactly (its schedule validated).
    const auto extreme = [&](WarpGoal goal, const char* phase, const char* what, WarpAnswer& answer) {
        budget.counters().phase = phase;
        const WarpExtreme e = explicit_extreme(problem, goal, budget);
        run.states += e.states;
        if (e.stopped) {
            stopped(*e.stopped);
            witnessed(answer, goal, e.bound, run.engine);
            return false;
        }
        WarpSchedule schedule = validated(problem, e.issues, e.makespan, what, budget);
        answer.set_exact(e.makespan, run.engine);
        answer.witness = std::move(schedule);
        return true;
    };
    // The verdict needs only the worst case: an exact worst case stands when the best runs out.
    try {
        if (!worst || extreme(WarpGoal::worst, "explicit engine, worst case", "explicit worst-case", run.worst))
            if (best) extreme(WarpGoal::best, "explicit engine, best case", "explicit best-case", run.best);
    } catch (const BudgetExhausted& e) {  // from validated: no room for the per-warp rows
        stopped(e.reason);
    } catch (const std::bad_alloc&) {
        stopped(StopReason::memory);
    }
    run.milliseconds = elapsed_ms(t0);
    merge(out, std::move(run));
}

std::string smt_reason(const WarpSmtOutcome& o) {
    if (o.last.reason == UnknownReason::timeout) return "timeout";
    // Ours, or Z3's own memory limit ("max. memory exceeded") set by --max-memory.
    if (o.last.reason_text.find("memory") != std::string::npos) return to_string(StopReason::memory);
    return to_string(o.last.reason) + (o.last.reason_text.empty() ? "" : ": " + o.last.reason_text);
}

// The SMT engine's answer on one goal: exact when proven; else a schedule it returned without a
// proof still bounds the extreme, once validated.
void smt_answer(WarpAnswer& a, WarpGoal goal, const WarpSmtOutcome& o) {
    if (o.makespan) a.set_exact(*o.makespan, Provenance::smt);
    else witnessed(a, goal, o.issues.empty() ? std::nullopt : std::optional<long long>(o.incumbent), Provenance::smt);
}

void run_smt(WarpCheck& out, const WarpProblem& problem, const SolverOptions& options, Budget& budget) {
    const auto t0 = std::chrono::steady_clock::now();
    budget.counters().phase = "SMT engine, worst case";
    const WarpSmtOutcome w = smt_worst_makespan(problem, options, {}, &budget);
    budget.counters().phase = "SMT engine, best case";
    const WarpSmtOutcome b = smt_best_makespan(problem, options, {}, &budget);
    WarpEngineRun run;
    run.engine = Provenance::smt;
    smt_answer(run.worst, WarpGoal::worst, w);
    smt_answer(run.best, WarpGoal::best, b);
    run.checks = w.checks + b.checks;
    for (const auto* o : {&w, &b})
        if (!o->makespan) run.unknown_reason = smt_reason(*o);
    try {
        if (!w.issues.empty()) run.worst.witness = validated(problem, w.issues, w.incumbent, "SMT worst-case", budget);
        if (!b.issues.empty()) run.best.witness = validated(problem, b.issues, b.incumbent, "SMT best-case", budget);
    } catch (const BudgetExhausted& e) {  // no room to check the schedules: nothing from this engine counts
        const int checks = run.checks;
        run = WarpEngineRun{};
        run.engine = Provenance::smt;
        run.checks = checks;
        run.unknown_reason = to_string(e.reason);
    }
    run.milliseconds = elapsed_ms(t0);
    merge(out, std::move(run));
    // An incumbent is a real schedule: it may still bound what an exact engine found.
    const WarpEngineRun& r = out.runs.back();
    if (out.worst.exact() && r.worst.lower && *r.worst.lower > *out.worst.exact()) out.engines_disagree = true;
    if (out.best.exact() && r.best.upper && *r.best.upper < *out.best.exact()) out.engines_disagree = true;
}

// Proven bounds (no search) and the priority rules' schedules as witnesses: a goal is exact
// when its witness reaches its proven bound. Only the witnesses take time (W x makespan per
// rule), under the budget; the bounds themselves are closed forms.
void run_bounds(WarpCheck& out, const WarpProblem& problem, Budget& budget) {
    const auto t0 = std::chrono::steady_clock::now();
    budget.counters().phase = "bounds engine";
    WarpEngineRun run;
    run.engine = Provenance::bounds;
    const WarpProvenBound upper = worst_case_upper_bound(problem), lower = best_case_lower_bound(problem);
    const auto proven_only = [&] {
        run.worst = run.best = WarpAnswer{};
        run.worst.upper = upper.cycles;
        run.best.lower = lower.cycles;
        run.worst.upper_by = run.best.lower_by = run.engine;
    };
    proven_only();
    std::optional<WarpPrioritySchedule> longest, shortest;
    const auto drop_witnesses = [&](StopReason r) {
        run.unknown_reason = to_string(r);
        proven_only();
    };
    try {
        for (const WarpPriorityRule& rule : priority_portfolio(problem.warps)) {
            WarpPrioritySchedule s = play_priority_rule(problem, rule, &budget);
            if (!longest || s.makespan > longest->makespan) longest = s;
            if (!shortest || s.makespan < shortest->makespan) shortest = std::move(s);
            if (longest->makespan == upper.cycles && shortest->makespan == lower.cycles) break;
        }
    } catch (const BudgetExhausted& e) {
        run.unknown_reason = to_string(e.reason);
    } catch (const std::bad_alloc&) {
        run.unknown_reason = to_string(StopReason::memory);
    }
    try {
        if (longest) {
            run.worst.witness = validated(problem, longest->issues, longest->makespan, "bounds worst-case", budget);
            witnessed(run.worst, WarpGoal::worst, longest->makespan, run.engine);
            if (longest->makespan > upper.cycles)
                throw std::logic_error("bounds engine: a legal schedule of " + std::to_string(longest->makespan) +
                                       " cycles exceeds the proven upper bound " + std::to_string(upper.cycles));
            if (longest->makespan == upper.cycles) run.worst.status = WcrtStatus::exact;
        }
        if (shortest) {
            run.best.witness = validated(problem, shortest->issues, shortest->makespan, "bounds best-case", budget);
            witnessed(run.best, WarpGoal::best, shortest->makespan, run.engine);
            if (shortest->makespan < lower.cycles)
                throw std::logic_error("bounds engine: a legal schedule of " + std::to_string(shortest->makespan) +
                                       " cycles is below the proven lower bound " + std::to_string(lower.cycles));
            if (shortest->makespan == lower.cycles) run.best.status = WcrtStatus::exact;
        }
    } catch (const BudgetExhausted& e) {  // no room or time to check the witnesses: they do not count
        drop_witnesses(e.reason);
    } catch (const std::bad_alloc&) {
        drop_witnesses(StopReason::memory);
    }
    if (run.unknown_reason.empty() && (!run.worst.exact() || !run.best.exact())) run.unknown_reason = "bounds apart";
    run.detail = "worst <= " + std::to_string(upper.cycles) + " by " + upper.lemma +
                 "; best >= " + std::to_string(lower.cycles) + " by " + lower.lemma;
    if (longest) run.detail += "; longest witness: " + longest->rule.name();
    if (shortest) run.detail += "; shortest witness: " + shortest->rule.name();
    run.milliseconds = elapsed_ms(t0);
    std::optional<WarpSchedule> longest_schedule;
    if (!run.worst.exact()) longest_schedule = std::exchange(run.worst.witness, std::nullopt);
    merge(out, std::move(run));
    // Kept as the witness of a refutation by bound; an exact engine after this one replaces it.
    if (!out.worst.exact()) out.worst.witness = std::move(longest_schedule);
}

// A proven bound that an exact answer (or a legal schedule) crosses is a bug somewhere.
void check_bounds_against_answers(WarpCheck& out) {
    const std::optional<long long> worst = out.worst.exact(), best = out.best.exact();
    for (const auto& r : out.runs) {
        if (r.worst.upper && worst && *worst > *r.worst.upper) out.engines_disagree = true;
        if (r.best.lower && best && *best < *r.best.lower) out.engines_disagree = true;
        if (r.worst.lower && worst && *r.worst.lower > *worst) out.engines_disagree = true;
        if (r.best.upper && best && *r.best.upper < *best) out.engines_disagree = true;
    }
}

// A goal no engine decided: the best bounds of all runs on it, and why it stayed open. Its
// status stays unknown even where they meet: only an engine decides a goal.
void gather(WarpAnswer& into, WarpAnswer WarpEngineRun::*goal, const std::vector<WarpEngineRun>& runs) {
    if (into.exact()) return;
    into.lower = into.upper = std::nullopt;
    into.lower_by = into.upper_by = Provenance::none;
    into.unknown_reason.clear();
    std::optional<WarpSchedule> kept = std::move(into.witness);  // the runs' bounds only: the witness stays
    for (const auto& r : runs) {
        const WarpAnswer& a = r.*goal;
        tighten(into, a, Provenance::none);
        if (!r.unknown_reason.empty() && into.unknown_reason.find(r.unknown_reason) == std::string::npos)
            into.unknown_reason += (into.unknown_reason.empty() ? "" : ", ") + r.unknown_reason;
    }
    into.witness = std::move(kept);
}

void conclude(WarpCheck& out) {
    check_bounds_against_answers(out);
    gather(out.worst, &WarpEngineRun::worst, out.runs);
    gather(out.best, &WarpEngineRun::best, out.runs);
    const std::optional<long long> worst = out.worst.exact();
    const WarpSchedule* witness = out.worst.witness && !out.worst.witness->rows.empty() ? &*out.worst.witness : nullptr;
    if (!worst && out.ft && out.worst.upper && *out.worst.upper <= *out.ft) {
        // Proven without the exact value: every schedule ends by the upper bound.
        out.outcome = WarpOutcome::holds;
        out.verdict = "holds (worst case <= " + std::to_string(*out.worst.upper) + " <= FT; exact value unknown)";
        out.worst.witness.reset();
    } else if (!worst && out.ft && witness && witness->makespan() > *out.ft) {
        // Refuted by a validated schedule longer than FT (the bounds engine's witness).
        const long long makespan = witness->makespan();
        out.outcome = WarpOutcome::refuted;
        out.verdict = "refuted (worst case >= " + std::to_string(makespan) + " exceeds FT by at least " +
                      std::to_string(makespan - *out.ft) + ")";
    } else if (!worst) {
        const std::string& why = out.worst.unknown_reason;
        out.outcome = WarpOutcome::unknown;
        out.verdict = "unknown (" + (why.empty() ? std::string("no engine answered") : why) +
                      (out.worst.lower ? "; worst case >= " + std::to_string(*out.worst.lower) : "") +
                      (out.worst.upper ? "; worst case <= " + std::to_string(*out.worst.upper) : "") + ")";
        out.worst.witness.reset();
    } else if (!out.ft) {
        out.outcome = WarpOutcome::no_conjecture;
        out.verdict = "no conjecture for this program";
    } else {
        out.outcome = verdict_refutes(*out.ft, *worst) ? WarpOutcome::refuted : WarpOutcome::holds;
        out.verdict = conjecture_verdict(*out.ft, *worst);
    }
}

}  // namespace

WarpCheck check_warp(const WarpProblem& problem, long long threads, const WarpEngines& engines, Budget& budget) {
    WarpCheck out;
    out.threads = threads;
    out.problem = problem;
    if (is_tr_program(problem.machine, problem.program)) out.ft = finishing_time_conjecture(problem.warps, problem.rep);
    if (engines.bounds) {
        // Before a search, the witnesses get half of what is left: at thousands of warps they
        // take seconds, and the search may still answer where the bounds do not meet.
        Budget witnesses = engines.explicit_state ? budget.slice(1, 2) : budget;
        run_bounds(out, problem, witnesses);
    }
    const bool worst_open = !out.worst.exact(), best_open = !out.best.exact();
    if (engines.explicit_state && (!engines.explicit_if_open || worst_open || best_open))
        run_explicit(out, problem, budget, !engines.explicit_if_open || worst_open,
                     !engines.explicit_if_open || best_open);
    if (engines.smt) run_smt(out, problem, engines.smt_options, budget);
    conclude(out);
    return out;
}

WarpCheck check_warp(const WarpProblem& problem, long long threads, const WarpEngines& engines) {
    Budget budget;
    return check_warp(problem, threads, engines, budget);
}

void smt_cross_check(WarpCheck& c, const CrossCheckOptions& options, const Budget& budget) {
    const long long cells =
        static_cast<long long>(c.problem.warps) * static_cast<long long>(c.problem.instructions().size());
    if (!c.worst.exact() || !c.best.exact()) {
        c.cross_check = "skipped (no exact answer to confirm)";
        return;
    }
    if (cells > options.max_cells) {
        c.cross_check = "skipped (W x program length = " + std::to_string(cells) + " > " +
                        std::to_string(options.max_cells) + "; --engine both to insist)";
        return;
    }
    std::chrono::milliseconds time = cross_check_time;
    if (const auto left = budget.remaining(); left && *left < time) time = *left;
    Budget slice = budget.capped(cross_check_time);
    run_smt(c, c.problem, SolverOptions{}, slice);
    const WarpEngineRun& r = c.runs.back();
    if (c.engines_disagree)
        c.cross_check = "DISAGREES (smt worst " + (r.worst.exact() ? std::to_string(*r.worst.exact()) : "-") +
                        ", best " + (r.best.exact() ? std::to_string(*r.best.exact()) : "-") + "): a bug, not a result";
    else if (r.worst.exact() && r.best.exact()) c.cross_check = "agrees (" + std::to_string(r.milliseconds) + " ms)";
    else
        c.cross_check = "no answer within its " + std::to_string(time.count()) + " ms budget (" + r.unknown_reason +
                        "; --engine both to insist)";
    conclude(c);
}

}  // namespace gpuwcrt
