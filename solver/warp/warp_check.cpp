#include "solver/warp/warp_check.hpp"

#include <new>
#include <stdexcept>

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

// Takes a run's schedules when the check has none yet; flags a disagreement otherwise.
void merge(WarpCheck& out, const WarpEngineRun& run, const WarpSchedule& worst, const WarpSchedule& best) {
    if (run.worst) {
        if (out.worst && *out.worst != *run.worst) out.engines_disagree = true;
        if (!out.worst) {
            out.worst = run.worst;
            out.worst_schedule = worst;
        }
    }
    if (run.best) {
        if (out.best && *out.best != *run.best) out.engines_disagree = true;
        if (!out.best) {
            out.best = run.best;
            out.best_schedule = best;
        }
    }
    out.runs.push_back(run);
}

// `worst`/`best`: which goals to search (the bounds engine may have settled the other).
void run_explicit(WarpCheck& out, const WarpProblem& problem, Budget& budget, bool worst = true, bool best = true) {
    const auto t0 = std::chrono::steady_clock::now();
    WarpEngineRun run;
    run.engine = Provenance::explicit_state;
    WarpSchedule worst_schedule, best_schedule;
    const auto stopped = [&](StopReason r) {
        if (run.unknown_reason.empty()) run.unknown_reason = to_string(r);
    };
    // One goal; true when it was decided exactly (its schedule validated).
    const auto extreme = [&](WarpGoal goal, const char* phase, const char* what, std::optional<int>& exact,
                             std::optional<int>& bound, WarpSchedule& schedule) {
        budget.counters().phase = phase;
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
        if (!worst || extreme(WarpGoal::worst, "explicit engine, worst case", "explicit worst-case", run.worst,
                              run.worst_bound, worst_schedule))
            if (best)
                extreme(WarpGoal::best, "explicit engine, best case", "explicit best-case", run.best, run.best_bound,
                        best_schedule);
    } catch (const BudgetExhausted& e) {  // from validated: no room for the per-warp rows
        stopped(e.reason);
    } catch (const std::bad_alloc&) {
        stopped(StopReason::memory);
    }
    run.milliseconds = elapsed_ms(t0);
    merge(out, run, worst_schedule, best_schedule);
}

std::string smt_reason(const WarpSmtOutcome& o) {
    if (o.last.reason == UnknownReason::timeout) return "timeout";
    // Ours, or Z3's own memory limit ("max. memory exceeded") set by --max-memory.
    if (o.last.reason_text.find("memory") != std::string::npos) return to_string(StopReason::memory);
    return to_string(o.last.reason) + (o.last.reason_text.empty() ? "" : ": " + o.last.reason_text);
}

// A schedule an engine returned without a proof still bounds the extreme, once validated.
std::optional<int> bound_of(const WarpSmtOutcome& o) {
    return o.issues.empty() ? std::nullopt : std::optional<int>(o.incumbent);
}

void run_smt(WarpCheck& out, const WarpProblem& problem, const SolverOptions& options, Budget& budget) {
    const auto t0 = std::chrono::steady_clock::now();
    budget.counters().phase = "SMT engine, worst case";
    const WarpSmtOutcome w = smt_worst_makespan(problem, options, {}, &budget);
    budget.counters().phase = "SMT engine, best case";
    const WarpSmtOutcome b = smt_best_makespan(problem, options, {}, &budget);
    WarpEngineRun run;
    run.engine = Provenance::smt;
    run.worst = w.makespan;
    run.best = b.makespan;
    run.worst_bound = bound_of(w);
    run.best_bound = bound_of(b);
    run.checks = w.checks + b.checks;
    for (const auto* o : {&w, &b})
        if (!o->makespan) run.unknown_reason = smt_reason(*o);
    WarpSchedule worst_schedule, best_schedule;
    try {
        if (!w.issues.empty()) worst_schedule = validated(problem, w.issues, w.incumbent, "SMT worst-case", budget);
        if (!b.issues.empty()) best_schedule = validated(problem, b.issues, b.incumbent, "SMT best-case", budget);
    } catch (const BudgetExhausted& e) {  // no room to check the schedules: nothing from this engine counts
        const int checks = run.checks;
        run = WarpEngineRun{};
        run.engine = Provenance::smt;
        run.checks = checks;
        run.unknown_reason = to_string(e.reason);
    }
    run.milliseconds = elapsed_ms(t0);
    merge(out, run, worst_schedule, best_schedule);
    // An incumbent is a real schedule: it may still bound what an exact engine found.
    if (out.worst && run.worst_bound && *run.worst_bound > *out.worst) out.engines_disagree = true;
    if (out.best && run.best_bound && *run.best_bound < *out.best) out.engines_disagree = true;
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
    run.worst_upper = upper.cycles;
    run.best_lower = lower.cycles;
    std::optional<WarpPrioritySchedule> longest, shortest;
    WarpSchedule worst_schedule, best_schedule;
    const auto drop_witnesses = [&](StopReason r) {
        run.unknown_reason = to_string(r);
        run.worst = run.best = run.worst_bound = run.best_bound = std::nullopt;
        worst_schedule = best_schedule = {};
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
            worst_schedule = validated(problem, longest->issues, longest->makespan, "bounds worst-case", budget);
            run.worst_bound = longest->makespan;
            if (longest->makespan > upper.cycles)
                throw std::logic_error("bounds engine: a legal schedule of " + std::to_string(longest->makespan) +
                                       " cycles exceeds the proven upper bound " + std::to_string(upper.cycles));
            if (longest->makespan == upper.cycles) run.worst = longest->makespan;
        }
        if (shortest) {
            best_schedule = validated(problem, shortest->issues, shortest->makespan, "bounds best-case", budget);
            run.best_bound = shortest->makespan;
            if (shortest->makespan < lower.cycles)
                throw std::logic_error("bounds engine: a legal schedule of " + std::to_string(shortest->makespan) +
                                       " cycles is below the proven lower bound " + std::to_string(lower.cycles));
            if (shortest->makespan == lower.cycles) run.best = shortest->makespan;
        }
    } catch (const BudgetExhausted& e) {  // no room or time to check the witnesses: they do not count
        drop_witnesses(e.reason);
    } catch (const std::bad_alloc&) {
        drop_witnesses(StopReason::memory);
    }
    if (run.unknown_reason.empty() && (!run.worst || !run.best)) run.unknown_reason = "bounds apart";
    run.detail = "worst <= " + std::to_string(upper.cycles) + " by " + upper.lemma +
                 "; best >= " + std::to_string(lower.cycles) + " by " + lower.lemma;
    if (longest) run.detail += "; longest witness: " + longest->rule.name();
    if (shortest) run.detail += "; shortest witness: " + shortest->rule.name();
    run.milliseconds = elapsed_ms(t0);
    merge(out, run, worst_schedule, best_schedule);
    // Kept as the witness of a refutation by bound; an exact engine after this one replaces it.
    if (!out.worst) out.worst_schedule = worst_schedule;
}

// A proven bound that an exact answer (or a legal schedule) crosses is a bug somewhere.
void check_bounds_against_answers(WarpCheck& out) {
    for (const auto& r : out.runs) {
        if (r.worst_upper && out.worst && *out.worst > *r.worst_upper) out.engines_disagree = true;
        if (r.best_lower && out.best && *out.best < *r.best_lower) out.engines_disagree = true;
        if (r.worst_bound && out.worst && *r.worst_bound > *out.worst) out.engines_disagree = true;
        if (r.best_bound && out.best && *r.best_bound < *out.best) out.engines_disagree = true;
    }
}

void conclude(WarpCheck& out) {
    check_bounds_against_answers(out);
    out.worst_lower = out.worst_upper = std::nullopt;
    for (const auto& r : out.runs) {
        if (r.worst_bound && (!out.worst_lower || *r.worst_bound > *out.worst_lower)) out.worst_lower = r.worst_bound;
        if (r.worst_upper && (!out.worst_upper || *r.worst_upper < *out.worst_upper)) out.worst_upper = r.worst_upper;
    }
    if (!out.worst && out.ft && out.worst_upper && *out.worst_upper <= *out.ft) {
        // Proven without the exact value: every schedule ends by the upper bound.
        out.outcome = WarpOutcome::holds;
        out.verdict = "holds (worst case <= " + std::to_string(*out.worst_upper) + " <= FT; exact value unknown)";
        out.worst_schedule = {};
    } else if (!out.worst && out.ft && !out.worst_schedule.rows.empty() && out.worst_schedule.makespan() > *out.ft) {
        // Refuted by a validated schedule longer than FT (the bounds engine's witness).
        const long long witness = out.worst_schedule.makespan();
        out.outcome = WarpOutcome::refuted;
        out.verdict = "refuted (worst case >= " + std::to_string(witness) + " exceeds FT by at least " +
                      std::to_string(witness - *out.ft) + ")";
    } else if (!out.worst) {
        std::optional<int> bound;
        std::string why;
        for (const auto& r : out.runs) {
            if (r.worst_bound && (!bound || *r.worst_bound > *bound)) bound = r.worst_bound;
            if (!r.unknown_reason.empty() && why.find(r.unknown_reason) == std::string::npos)
                why += (why.empty() ? "" : ", ") + r.unknown_reason;
        }
        out.outcome = WarpOutcome::unknown;
        out.verdict = "unknown (" + (why.empty() ? std::string("no engine answered") : why) +
                      (bound ? "; worst case >= " + std::to_string(*bound) : "") +
                      (out.worst_upper ? "; worst case <= " + std::to_string(*out.worst_upper) : "") + ")";
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
    if (engines.explicit_state && (!engines.explicit_if_open || !out.worst || !out.best))
        run_explicit(out, problem, budget, !engines.explicit_if_open || !out.worst,
                     !engines.explicit_if_open || !out.best);
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
    if (!c.worst || !c.best) {
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
        c.cross_check = "DISAGREES (smt worst " + (r.worst ? std::to_string(*r.worst) : "-") + ", best " +
                        (r.best ? std::to_string(*r.best) : "-") + "): a bug, not a result";
    else if (r.worst && r.best) c.cross_check = "agrees (" + std::to_string(r.milliseconds) + " ms)";
    else
        c.cross_check = "no answer within its " + std::to_string(time.count()) + " ms budget (" + r.unknown_reason +
                        "; --engine both to insist)";
    conclude(c);
}

}  // namespace gpuwcrt
