#include "solver/warp/warp_search.hpp"

#include <algorithm>
#include <new>
#include <stdexcept>

#include "encode/warp/warp_unary_encoding.hpp"

namespace gpuwcrt {
namespace {

using Counts = std::vector<std::vector<int>>;  // [cycle][instruction] -> warps past it

// The last model's counts, read from one model object (asking the session per literal fetches
// the whole model each time, which is quadratic in the number of literals).
Counts model_counts(Z3Session& z, const WarpUnaryEncoding& enc, const Budget& budget) {
    const z3::model m = z.model();
    Counts passed(static_cast<std::size_t>(enc.cycles()) + 1,
                  std::vector<int>(static_cast<std::size_t>(enc.length()), 0));
    for (int c = 1; c <= enc.cycles(); ++c)
        for (int p = 0; p < enc.length(); budget.check(), ++p)
            for (int k = 1; k <= enc.problem().warps; ++k) {
                const z3::expr v = m.eval(enc.done(p, c, k), true);
                if (!v.is_true() && !v.is_false())
                    throw std::logic_error("model value is not a Boolean: " + v.to_string());
                passed[static_cast<std::size_t>(c)][static_cast<std::size_t>(p)] += v.is_true() ? 1 : 0;
            }
    return passed;
}

// The model's issue vectors for cycles 1..cycles, stopping once every warp is done.
std::vector<WarpIssue> model_issues(Z3Session& z, const WarpUnaryEncoding& enc, const WarpStepper& step, int cycles,
                                    const Budget& budget) {
    const Counts passed = model_counts(z, enc, budget);
    std::vector<WarpIssue> out;
    WarpState s = step.initial();
    for (std::size_t c = 1; c <= static_cast<std::size_t>(cycles) && !step.finished(s); ++c) {
        WarpIssue x(static_cast<std::size_t>(enc.length()), 0);
        for (std::size_t p = 0; p < x.size(); ++p) x[p] = static_cast<std::uint16_t>(passed[c][p] - passed[c - 1][p]);
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

// The Z3 timeout never reaches past the point's deadline.
SolverOptions within(SolverOptions o, const Budget& budget) {
    o = with_default_logic(std::move(o));
    if (const auto left = budget.remaining(); left && (!o.timeout || *left < *o.timeout))
        o.timeout = std::max(*left, std::chrono::milliseconds(1));
    return o;
}

void counted(WarpSmtOutcome& out, const Budget& budget) {
    ++out.checks;
    budget.counters().checks.fetch_add(1, std::memory_order_relaxed);
}

enum class Extreme { worst, best };

// Progress bounds (docs/theory/warp/warp-conjecture.md, "How the SMT engine proves a makespan", with the
// soundness argument). A group is a unit, or with an issue limit the whole issue slot. Worst
// case: per cycle c in turn, the largest g such that the group has issued at least g
// instructions by the end of c in EVERY schedule; best case: the smallest h such that it has
// issued at most h. A bound carried over from cycle c - 1 (monotonicity, resp. capacity) moves
// one step per UNSAT answer of Z3 on the same formula, and is then asserted: a proved
// consequence of the rules, so the models stay the legal prefixes, but the makespan question
// starts from cumulative bounds that the SAT core would otherwise rediscover by counting across
// the whole horizon. A question a known schedule already answers (sat) is not asked: known
// schedules are the greedy incumbent and the greedy completions of every model.
class Progress {
public:
    Progress(Z3Session& z, WarpUnaryEncoding& enc, const WarpStepper& step, Extreme goal, WarpSmtOutcome& out,
             const Budget& budget)
        : z_(z), enc_(enc), step_(step), goal_(goal), out_(out), budget_(budget) {
        const WarpMachine& m = enc.problem().machine;
        for (std::size_t u = 0; u < m.units.size(); ++u)
            groups_.push_back(
                {static_cast<int>(u), std::min(m.units[u].capacity, m.issue_limit.value_or(m.units[u].capacity))});
        if (m.issue_limit) groups_.push_back({-1, *m.issue_limit});
        for (auto& g : groups_)
            for (const auto& i : step.program()) g.total += g.unit < 0 || g.unit == i.unit ? enc.problem().warps : 0;
        // Only the most loaded groups (instructions per unit of capacity): the bounds of the
        // others were mostly answered by models, each costing a SAT call, and shortened nothing.
        const auto load_less = [](const Group& a, const Group& b) {
            return a.total * b.capacity < b.total * a.capacity;
        };
        const Group top = *std::max_element(groups_.begin(), groups_.end(), load_less);
        std::erase_if(groups_, [&](const Group& g) { return load_less(g, top); });
        know(out.issues);
    }

    // Proves the bounds for every cycle the next makespan question is about: up to the
    // incumbent (worst) or one before it (best), which models found on the way may move, or up
    // to `at_least` if that is later (a hinted question). False when the budget ran out, with
    // out.last saying so.
    bool extend(int at_least = 0) {
        const auto last = [&] {
            return std::max(at_least, goal_ == Extreme::worst ? out_.incumbent : out_.incumbent - 1);
        };
        for (int c = done_ + 1; c <= last(); done_ = c++) {
            while (enc_.cycles() < c) enc_.add_cycle(z_.solver());
            for (std::size_t g = 0; g < groups_.size(); ++g)
                if (!tighten(c, g)) return false;
        }
        return true;
    }

    // A complete legal schedule: its group totals show which bounds cannot be tightened further.
    void know(const std::vector<WarpIssue>& issues) {
        std::vector<std::vector<int>> totals{std::vector<int>(groups_.size(), 0)};
        for (const auto& x : issues) {
            totals.push_back(totals.back());
            for (std::size_t g = 0; g < groups_.size(); ++g)
                for (std::size_t p = 0; p < x.size(); ++p)
                    if (groups_[g].unit < 0 || groups_[g].unit == step_.program()[p].unit) totals.back()[g] += x[p];
        }
        known_.push_back(std::move(totals));
    }

private:
    struct Group {
        int unit = -1;  // -1: every instruction (the issue slot)
        int capacity = 1;
        int total = 0;  // instructions of all warps in the group
        int bound = 0;  // proved for cycle done_: at least (worst) / at most (best) this many issued
    };

    // Issues of group g by cycle c in the known schedule nearest to the bound.
    int witnessed(int c, std::size_t g) const {
        int v = goal_ == Extreme::worst ? groups_[g].total : 0;
        for (const auto& t : known_) {
            const int x = t[std::min(static_cast<std::size_t>(c), t.size() - 1)][g];
            v = goal_ == Extreme::worst ? std::min(v, x) : std::max(v, x);
        }
        return v;
    }

    bool tighten(int c, std::size_t g) {
        Group& gr = groups_[g];
        const z3::expr_vector lits = enc_.unit_done(gr.unit, c);
        const bool worst = goal_ == Extreme::worst;
        // Carried over from cycle c - 1: never fewer issues than then (worst), never more than
        // one cycle's capacity more (best).
        if (!worst) gr.bound = std::min(gr.bound + gr.capacity, gr.total);
        while (worst ? gr.bound < witnessed(c, g) : gr.bound > witnessed(c, g)) {
            const std::string name = std::string(worst ? "at_most_" : "at_least_") + std::to_string(gr.bound) + "_of_" +
                                     std::to_string(gr.unit) + "_by_" + std::to_string(c);
            const z3::expr question = worst ? z3::atmost(lits, static_cast<unsigned>(gr.bound))
                                            : z3::atleast(lits, static_cast<unsigned>(gr.bound));
            out_.last = z_.check(goal_literal(z_, question, name));
            counted(out_, budget_);
            if (out_.last.answer == Answer::unknown) return false;
            if (out_.last.answer == Answer::sat) {
                take_model();
                continue;  // the model now witnesses the bound: the loop ends
            }
            gr.bound += worst ? 1 : -1;
        }
        // Asserted even when no question was needed: the carried-over bound is the cumulative
        // form of the per-cycle capacity rule, which the SAT core cannot sum up by itself
        // (refuting "45 loads fit in 44 cycles" took it seconds).
        if (worst ? gr.bound > 0 : gr.bound < static_cast<int>(lits.size()))
            z_.solver().add(worst ? z3::atleast(lits, static_cast<unsigned>(gr.bound))
                                  : z3::atmost(lits, static_cast<unsigned>(gr.bound)));
        return true;
    }

    // Completes the model's prefix greedily; keeps it as the incumbent if it is better.
    void take_model() {
        const bool worst = goal_ == Extreme::worst;
        std::vector<WarpIssue> issues =
            step_.complete(model_issues(z_, enc_, step_, enc_.cycles(), budget_),
                           worst ? WarpGreedy::ahead_first : WarpGreedy::behind_first, &budget_);
        know(issues);
        const int m = static_cast<int>(issues.size());
        if (worst ? m > out_.incumbent : m < out_.incumbent) {
            out_.incumbent = m;
            out_.issues = std::move(issues);
        }
    }

    Z3Session& z_;
    WarpUnaryEncoding& enc_;
    const WarpStepper& step_;
    Extreme goal_;
    WarpSmtOutcome& out_;
    const Budget& budget_;
    std::vector<Group> groups_;
    int done_ = 0;                                      // last cycle whose bounds are asserted
    std::vector<std::vector<std::vector<int>>> known_;  // per known schedule: [cycle][group] issues so far
};

void worst_search(const WarpProblem& problem, const SolverOptions& options, std::optional<int> hint,
                  const Budget& budget, WarpSmtOutcome& out) {
    const WarpStepper step(problem);
    out.issues = step.complete({}, WarpGreedy::ahead_first, &budget);
    out.incumbent = static_cast<int>(out.issues.size());
    Z3Session z(within(options, budget));
    leave_sigint_to_caller(z);
    WarpUnaryEncoding enc(z.ctx(), problem, &budget);
    Progress lemmas(z, enc, step, Extreme::worst, out, budget);
    if (hint && *hint > out.incumbent) {
        // Jump straight to the hinted value; only a model (a real schedule) may raise the
        // incumbent, so a wrong hint costs one check and changes no answer.
        if (!lemmas.extend(*hint - 1)) return;
        out.last =
            z.check(goal_literal(z, enc.unfinished_after(*hint - 1), "longer_than_" + std::to_string(*hint - 1)));
        counted(out, budget);
        if (out.last.answer == Answer::unknown) return;
        if (out.last.answer == Answer::sat) {  // kept only if longer than what the bounds' models gave
            std::vector<WarpIssue> issues =
                step.complete(model_issues(z, enc, step, *hint - 1, budget), WarpGreedy::ahead_first, &budget);
            lemmas.know(issues);
            if (issues.size() > out.issues.size()) out.issues = std::move(issues);
        }
        out.incumbent = static_cast<int>(out.issues.size());
    }
    for (;;) {
        if (!lemmas.extend()) return;
        // Makespan > incumbent iff some legal incumbent-cycle prefix leaves a warp unfinished.
        while (enc.cycles() < out.incumbent) enc.add_cycle(z.solver());
        out.last = z.check(
            goal_literal(z, enc.unfinished_after(out.incumbent), "longer_than_" + std::to_string(out.incumbent)));
        counted(out, budget);
        if (out.last.answer == Answer::unsat) {
            out.makespan = out.incumbent;
            return;
        }
        if (out.last.answer == Answer::unknown) return;
        // Any continuation of an unfinished prefix is at least as long; greedy finishes it.
        out.issues = step.complete(model_issues(z, enc, step, out.incumbent, budget), WarpGreedy::ahead_first, &budget);
        out.incumbent = static_cast<int>(out.issues.size());
        lemmas.know(out.issues);
    }
}

void best_search(const WarpProblem& problem, const SolverOptions& options, std::optional<int> hint,
                 const Budget& budget, WarpSmtOutcome& out) {
    const WarpStepper step(problem);
    out.issues = step.complete({}, WarpGreedy::behind_first, &budget);
    out.incumbent = static_cast<int>(out.issues.size());
    Z3Session z(within(options, budget));
    leave_sigint_to_caller(z);
    WarpUnaryEncoding enc(z.ctx(), problem, &budget);
    Progress lemmas(z, enc, step, Extreme::best, out, budget);
    while (enc.cycles() < out.incumbent - 1) enc.add_cycle(z.solver());
    const auto finished_schedule = [&](int cycles) {
        std::vector<WarpIssue> issues = model_issues(z, enc, step, cycles, budget);
        WarpState s = step.initial();
        for (const auto& x : issues) s = step.apply(s, x);
        if (!step.finished(s)) throw std::logic_error("SMT model claims a finished schedule that is not");
        lemmas.know(issues);
        return issues;
    };
    if (hint && *hint < out.incumbent && *hint >= 1) {  // as for the worst case: only a model counts
        if (!lemmas.extend()) return;
        out.last = z.check(goal_literal(z, enc.finished_by(*hint), "done_by_" + std::to_string(*hint)));
        counted(out, budget);
        if (out.last.answer == Answer::unknown) return;
        if (out.last.answer == Answer::sat) {  // kept only if shorter than what the bounds' models gave
            std::vector<WarpIssue> issues = finished_schedule(*hint);
            if (issues.size() < out.issues.size()) out.issues = std::move(issues);
            out.incumbent = static_cast<int>(out.issues.size());
        }
    }
    for (;;) {
        if (out.incumbent <= 1) {  // nothing finishes in zero cycles
            out.makespan = out.incumbent;
            return;
        }
        if (!lemmas.extend()) return;
        if (out.incumbent <= 1) continue;  // a model finished in one cycle
        out.last = z.check(
            goal_literal(z, enc.finished_by(out.incumbent - 1), "done_by_" + std::to_string(out.incumbent - 1)));
        counted(out, budget);
        if (out.last.answer == Answer::unsat) {
            out.makespan = out.incumbent;
            return;
        }
        if (out.last.answer == Answer::unknown) return;
        out.issues = finished_schedule(out.incumbent - 1);
        out.incumbent = static_cast<int>(out.issues.size());
    }
}

// Running out of time or memory anywhere (building the encoding, reading a model, inside Z3)
// ends the search as unknown, keeping the incumbent found so far.
template <class Search>
WarpSmtOutcome stopping(const Budget* given, Search search) {
    Budget none;
    const Budget& budget = given ? *given : none;
    WarpSmtOutcome out;
    const auto stop = [&](UnknownReason reason, const std::string& text) {
        out.makespan.reset();
        out.last = {Answer::unknown, reason, text};
    };
    try {
        search(budget, out);
    } catch (const BudgetExhausted& e) {
        stop(e.reason == StopReason::timeout ? UnknownReason::timeout : UnknownReason::other, to_string(e.reason));
    } catch (const std::bad_alloc&) {
        stop(UnknownReason::other, to_string(StopReason::memory));
    } catch (const z3::exception& e) {
        const std::string what = e.msg();
        if (what.find("memory") == std::string::npos) throw;
        stop(UnknownReason::other, to_string(StopReason::memory));
    }
    out.incumbent = static_cast<int>(out.issues.size());  // a stop may fall between the two updates
    return out;
}

}  // namespace

WarpSmtOutcome smt_worst_makespan(const WarpProblem& problem, SolverOptions options, std::optional<int> hint,
                                  const Budget* budget) {
    return stopping(budget,
                    [&](const Budget& b, WarpSmtOutcome& out) { worst_search(problem, options, hint, b, out); });
}

WarpSmtOutcome smt_best_makespan(const WarpProblem& problem, SolverOptions options, std::optional<int> hint,
                                 const Budget* budget) {
    return stopping(budget, [&](const Budget& b, WarpSmtOutcome& out) { best_search(problem, options, hint, b, out); });
}

}  // namespace gpuwcrt
