#include "solver/warp_search.hpp"

#include <stdexcept>

#include "encode/warp_unary_encoding.hpp"

namespace gpuwcrt {
namespace {

// Reads the model's issue vectors for cycles 1..cycles, stopping once every warp is done.
std::vector<WarpIssue> model_issues(Z3Session& z, const WarpUnaryEncoding& enc, const WarpStepper& step,
                                    int cycles) {
    const auto count = [&](int p, int c) {
        int n = 0;
        for (int k = 1; k <= enc.problem().warps; ++k) n += z.bool_value(enc.done(p, c, k)) ? 1 : 0;
        return n;
    };
    std::vector<WarpIssue> out;
    WarpState s = step.initial();
    for (int c = 1; c <= cycles && !step.finished(s); ++c) {
        WarpIssue x(static_cast<std::size_t>(enc.length()), 0);
        for (int p = 0; p < enc.length(); ++p)
            x[static_cast<std::size_t>(p)] = static_cast<std::uint16_t>(count(p, c) - count(p, c - 1));
        s = step.apply(s, x);  // throws on a warp that was not ready: an encoding bug
        out.push_back(std::move(x));
    }
    return out;
}

// The QF_FD core takes only Boolean constants as assumptions: name the goal by one.
z3::expr_vector goal_literal(Z3Session& z, const z3::expr& goal, const std::string& name) {
    z3::expr lit = z.ctx().bool_const(name.c_str());
    z.solver().add(z3::implies(lit, goal));
    z3::expr_vector v(z.ctx());
    v.push_back(lit);
    return v;
}

SolverOptions with_default_logic(SolverOptions o) {
    if (o.logic.empty()) o.logic = "QF_FD";
    return o;
}

// Z3 would otherwise take SIGINT for itself during a check (and report "canceled"), so a
// sweep's own Ctrl-C handler would never see it.
void leave_sigint_to_caller(Z3Session& z) {
    z3::params p(z.ctx());
    p.set("ctrl_c", false);
    z.solver().set(p);
}

}  // namespace

WarpSmtOutcome smt_worst_makespan(const WarpProblem& problem, SolverOptions options, std::optional<int> hint) {
    const WarpStepper step(problem);
    WarpSmtOutcome out;
    out.issues = step.complete({}, WarpGreedy::ahead_first);
    out.incumbent = static_cast<int>(out.issues.size());
    Z3Session z(with_default_logic(options));
    leave_sigint_to_caller(z);
    WarpUnaryEncoding enc(z.ctx(), problem);
    if (hint && *hint > out.incumbent) {
        // Jump straight to the hinted value; only a model (a real schedule) may raise the
        // incumbent, so a wrong hint costs one check and changes no answer.
        while (enc.cycles() < *hint - 1) enc.add_cycle(z.solver());
        out.last = z.check(goal_literal(z, enc.unfinished_after(*hint - 1), "longer_than_" + std::to_string(*hint - 1)));
        ++out.checks;
        if (out.last.answer == Answer::unknown) return out;
        if (out.last.answer == Answer::sat)
            out.issues = step.complete(model_issues(z, enc, step, *hint - 1), WarpGreedy::ahead_first);
        out.incumbent = static_cast<int>(out.issues.size());
    }
    for (;;) {
        // Makespan > incumbent iff some legal incumbent-cycle prefix leaves a warp unfinished.
        while (enc.cycles() < out.incumbent) enc.add_cycle(z.solver());
        out.last = z.check(goal_literal(z, enc.unfinished_after(out.incumbent),
                                        "longer_than_" + std::to_string(out.incumbent)));
        ++out.checks;
        if (out.last.answer == Answer::unsat) {
            out.makespan = out.incumbent;
            return out;
        }
        if (out.last.answer == Answer::unknown) return out;
        // Any continuation of an unfinished prefix is at least as long; greedy finishes it.
        out.issues = step.complete(model_issues(z, enc, step, out.incumbent), WarpGreedy::ahead_first);
        out.incumbent = static_cast<int>(out.issues.size());
    }
}

WarpSmtOutcome smt_best_makespan(const WarpProblem& problem, SolverOptions options, std::optional<int> hint) {
    const WarpStepper step(problem);
    WarpSmtOutcome out;
    out.issues = step.complete({}, WarpGreedy::behind_first);
    out.incumbent = static_cast<int>(out.issues.size());
    Z3Session z(with_default_logic(options));
    leave_sigint_to_caller(z);
    WarpUnaryEncoding enc(z.ctx(), problem);
    while (enc.cycles() < out.incumbent - 1) enc.add_cycle(z.solver());
    const auto finished_schedule = [&](int cycles) {
        std::vector<WarpIssue> issues = model_issues(z, enc, step, cycles);
        WarpState s = step.initial();
        for (const auto& x : issues) s = step.apply(s, x);
        if (!step.finished(s)) throw std::logic_error("SMT model claims a finished schedule that is not");
        return issues;
    };
    if (hint && *hint < out.incumbent && *hint >= 1) {  // as for the worst case: only a model counts
        out.last = z.check(goal_literal(z, enc.finished_by(*hint), "done_by_" + std::to_string(*hint)));
        ++out.checks;
        if (out.last.answer == Answer::unknown) return out;
        if (out.last.answer == Answer::sat) {
            out.issues = finished_schedule(*hint);
            out.incumbent = static_cast<int>(out.issues.size());
        }
    }
    for (;;) {
        if (out.incumbent <= 1) {  // nothing finishes in zero cycles
            out.makespan = out.incumbent;
            return out;
        }
        out.last = z.check(goal_literal(z, enc.finished_by(out.incumbent - 1),
                                        "done_by_" + std::to_string(out.incumbent - 1)));
        ++out.checks;
        if (out.last.answer == Answer::unsat) {
            out.makespan = out.incumbent;
            return out;
        }
        if (out.last.answer == Answer::unknown) return out;
        out.issues = finished_schedule(out.incumbent - 1);
        out.incumbent = static_cast<int>(out.issues.size());
    }
}

}  // namespace gpuwcrt
