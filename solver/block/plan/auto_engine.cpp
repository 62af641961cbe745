#include "solver/block/plan/auto_engine.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "encode/block/block_problem.hpp"
#include "solver/block/plan/run_plan.hpp"
#include "solver/registry.hpp"

namespace gpuwcrt {
namespace {

using Clock = Budget::Clock;

// What the links of the chain proved so far, per operation, and the steps they took.
class Chain {
public:
    Chain(const EngineRequest& request, const Budget& budget) : rq_(request), budget_(budget), start_(Clock::now()) {
        run_.answers = unknown_answers(request.workload);
        for (WcrtAnswer& a : run_.answers) a.unknown_reason = "no engine decided it";
    }

    bool settled(int op) const {
        const WcrtAnswer& x = run_.answers[op];
        return rq_.settled ? rq_.settled(x) : x.status == WcrtStatus::exact;
    }
    std::vector<int> open() const {
        std::vector<int> out;
        for (int op : rq_.ops)
            if (!settled(op)) out.push_back(op);
        return out;
    }
    bool goes_on() const { return !open().empty() && !budget_.expired(); }
    // The operations asked for that no link has bounded from above yet (the fallback's).
    std::vector<int> unbounded() const {
        std::vector<int> out;
        for (int op : rq_.ops)
            if (!run_.answers[op].upper) out.push_back(op);
        return out;
    }

    // One engine's run on the open operations, not yet kept: `refused` when it refused.
    struct Attempt {
        std::string name;
        Provenance by;
        Clock::time_point t0;
        EngineRun run;
        std::optional<InputError> refused;
    };
    // Safe on another thread while this one runs another attempt: reads the request only.
    Attempt attempt(const Engine& engine, const Budget& slice, const std::vector<int>& ops,
                    const StatesSignal& head_start = {}) const {
        Attempt a{std::string(engine.name()), engine.provenance(), Clock::now(), {}, std::nullopt};
        budget_.counters().phase = engine.name().data();  // the names are string literals (registry.hpp)
        try {
            a.run =
                engine.run(EngineRequest{rq_.workload, ops, rq_.options, rq_.settled, rq_.progress, head_start}, slice);
        } catch (const InputError& e) {
            a.refused = e;
        }
        return a;
    }
    // Whether this run alone settles every operation asked for.
    bool settles_all(const EngineRun& r) const {
        return std::all_of(rq_.ops.begin(), rq_.ops.end(), [&](int op) {
            const WcrtAnswer& x = r.answers.at(op);
            return rq_.settled ? rq_.settled(x) : x.status == WcrtStatus::exact;
        });
    }
    // Keeps what improves each answer and says the step's line (step_line). Returns the refusal.
    std::optional<InputError> keep(const Attempt& a, const PlanStep& s) {
        if (a.refused) {
            step(a.name + ": not applicable (" + a.refused->message() + ")");
            return a.refused;
        }
        const EngineRun& r = a.run;
        add_stats(r);
        for (std::size_t op = 0; op < r.answers.size(); ++op)
            absorb(rq_.workload, run_.answers[op], r.answers[op], a.by);
        publish_progress(rq_.workload, run_.answers, rq_.ops, rq_.settled, budget_.counters());
        // A formula ends on its own: the step the deadline stopped is a search.
        const bool stopped = budget_.expired() && !s.formula;
        if (stopped && stopped_in_.empty()) stopped_in_ = a.name;
        run_.steps.insert(run_.steps.end(), r.steps.begin(), r.steps.end());  // already said by the engine
        if (const std::optional<std::string> line = step_line(a, stopped)) step(*line);
        return std::nullopt;
    }
    // The link of step `s` on the operations still open (the fallback: still without an upper
    // bound), kept.
    std::optional<InputError> link(const Engine& engine, const PlanStep& s, const Budget& slice) {
        return keep(attempt(engine, slice, s.fallback ? unbounded() : open()), s);
    }

    EngineRun finish(const StatsShown& shown) {
        for (int op : open())
            if (budget_.expired() && run_.answers[op].status != WcrtStatus::exact)
                run_.answers[op].unknown_reason = "timeout";
        if (!stopped_in_.empty())
            run_.steps.push_back("stopped on time (--timeout or --max-memory) in the " + stopped_in_ +
                                 " step: the bounds are sound, not final");
        run_.stats.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start_);
        run_.complete = open().empty();
        run_.shown = shown;
        return std::move(run_);
    }

private:
    // The counters the link's engine measures.
    void add_stats(const EngineRun& r) {
        if (r.shown.scenarios != Shown::no) run_.stats.scenarios += r.stats.scenarios;
        if (r.shown.solver_checks != Shown::no) run_.stats.solver_calls += r.stats.solver_calls;
        if (r.shown.abstract_states != Shown::no) run_.stats.abstract_states += r.stats.abstract_states;
        if (r.stats.exact) run_.stats.exact = r.stats.exact;
    }

public:
    void step(const std::string& line) {
        run_.steps.push_back(line);
        if (rq_.progress) rq_.progress(line);
    }

private:
    // A link's line once its answers are kept: the exact engine its states, the abstraction its
    // time, the interference bound how many operations it bounded (none: no line), the SMT link
    // nothing more than its own lines (EngineRun::steps) unless the deadline stopped it, the
    // busy-time bound nothing.
    std::optional<std::string> step_line(const Attempt& a, bool stopped) const {
        const std::string on_time = stopped ? " (stopped on time)" : "";
        const EngineRun& r = a.run;
        if (a.name == engine_name::exact)
            return a.name + ": " + seconds_since(a.t0) + ", " +
                   std::to_string(r.stats.exact ? r.stats.exact->states : 0) + " states" +
                   (r.complete ? "" : " (stopped)") + on_time + ", " + open_text();
        if (a.name == engine_name::bounds) return a.name + ": " + seconds_since(a.t0) + on_time + ", " + open_text();
        if (a.name == engine_name::interference) {
            const auto bounded =
                std::count_if(rq_.ops.begin(), rq_.ops.end(), [&](int op) { return r.answers[op].upper.has_value(); });
            if (bounded == 0) return std::nullopt;
            return a.name + ": an upper bound for " + std::to_string(bounded) + " of " +
                   std::to_string(rq_.ops.size()) + " operations in " + seconds_since(a.t0) +
                   (r.complete ? "" : " (stopped on time)") + ", " + open_text();
        }
        if (stopped) return a.name + on_time + ", " + open_text();
        return std::nullopt;
    }

    std::string open_text() const {
        return std::to_string(open().size()) + " of " + std::to_string(rq_.ops.size()) + " open";
    }

    const EngineRequest& rq_;
    const Budget& budget_;
    Clock::time_point start_;
    EngineRun run_;
    std::string stopped_in_;  // the step the deadline stopped, if any
};

// The exact step's head start, in stored states: a search that ends before it runs alone (the
// pipelines and the small bench workloads, bench/RESULTS.md "plan"); after it the quick
// abstraction pass runs beside it, so that a search that cannot finish does not leave the run
// without upper bounds. It decides only when the pass starts, never what is printed: the
// pass's answers are kept only when the exact step does not settle everything, and then the
// pass has run to its end either way (beside, or after).
constexpr std::uint64_t exact_head_start_states = std::uint64_t(1) << 17;

// The exact step of the plan with the plan's quick abstraction pass beside it (see above): the
// search signals when its stored states reach the head start. Returns whether the pass ran (kept
// or not needed); `exact_refused` gets the exact engine's refusal.
bool exact_beside_bounds(Chain& chain, const PlanStep& exact_step, const PlanStep& quick_step,
                         const std::shared_ptr<const BlockProblem>& p, const Budget& budget,
                         std::optional<InputError>& exact_refused) {
    const std::unique_ptr<Engine> exact = plan_link(exact_step, p);
    const std::vector<int> ops = chain.open();
    Chain::Attempt exact_try;
    std::exception_ptr error;
    std::mutex m;
    std::condition_variable cv;
    bool done = false, head_start = false;  // guarded by m
    const StatesSignal at_head_start{exact_head_start_states, [&] {
                                         std::lock_guard lock(m);
                                         head_start = true;
                                         cv.notify_all();
                                     }};
    const auto stop_bounds = std::make_shared<std::atomic<bool>>(false);
    budget.counters().states = 0;
    // The two share the memory: the search, whose levels grow the most, three quarters.
    Budget exact_budget = budget, bounds_budget = budget.stopped_by(stop_bounds);
    exact_budget.memory_bytes = budget.memory_bytes / 4 * 3;
    bounds_budget.memory_bytes = budget.memory_bytes / 4;
    std::thread worker([&] {
        try {
            exact_try = chain.attempt(*exact, exact_budget, ops, at_head_start);
            if (!exact_try.refused && chain.settles_all(exact_try.run)) *stop_bounds = true;  // not needed
        } catch (...) {
            error = std::current_exception();
            *stop_bounds = true;
        }
        std::lock_guard lock(m);
        done = true;
        cv.notify_all();
    });
    bool alone;
    {
        std::unique_lock lock(m);
        const auto ready = [&] { return done || head_start; };
        if (budget.deadline) cv.wait_until(lock, *budget.deadline, ready);
        else cv.wait(lock, ready);
        alone = done && !head_start;  // past the deadline first: the pass starts, and stops at once
    }
    std::optional<Chain::Attempt> bounds_try;
    if (!alone) bounds_try = chain.attempt(*plan_link(quick_step, p), bounds_budget, ops);
    worker.join();
    if (error) std::rethrow_exception(error);
    exact_refused = chain.keep(exact_try, exact_step);
    if (!bounds_try) return false;
    if (*stop_bounds) chain.step("bounds: not needed, the exact step decided every operation");
    else chain.keep(*bounds_try, quick_step);
    return true;
}

// The plan's quick abstraction pass, the one that runs beside a long exact step.
std::size_t quick_pass(const std::vector<PlanStep>& plan) {
    return std::find_if(plan.begin(), plan.end(),
                        [](const PlanStep& s) { return s.engine == engine_name::bounds && s.quick; }) -
           plan.begin();
}

}  // namespace

std::string_view AutoEngine::name() const { return engine_name::automatic; }

StatsShown AutoEngine::stats_shown() const {
    StatsShown s;
    s.scenarios = Shown::json;
    s.solver_checks = Shown::nonzero;
    s.abstract_states = Shown::nonzero;
    s.steps = true;
    return s;
}

EngineRun AutoEngine::run(const EngineRequest& request, const Budget& budget) const {
    const Workload& w = request.workload;
    Chain chain(request, budget);
    budget.counters().operations = request.ops.size();
    budget.counters().decided = 0;
    std::shared_ptr<const BlockProblem> p;
    std::map<std::string_view, std::optional<InputError>> refused;  // by engine name
    try {
        p = std::make_shared<const BlockProblem>(make_block_problem(w));
    } catch (const InputError& e) {
        refused[engine_name::smt] = e;
    }
    try {
        engine_named(engine_name::exact).check_scope(w);
    } catch (const InputError& e) {
        refused[engine_name::exact] = e;
        chain.step("exact: not applicable (" + e.message() + ")");
    }
    const bool ranges = has_ranges(w);
    const std::vector<PlanStep> plan = make_plan(w, !refused[engine_name::exact], p != nullptr);
    std::vector<bool> ran_beside(plan.size(), false);
    for (std::size_t i = 0; i < plan.size(); ++i) {
        const PlanStep& s = plan[i];
        // Once nothing is open or the time is up only the formulas still run: they cost nothing.
        if (ran_beside[i] || (!s.formula && !chain.goes_on())) continue;
        if (!s.why.empty()) chain.step("plan: " + s.why);
        const std::size_t beside = s.bounds_beside ? quick_pass(plan) : plan.size();
        if (beside < plan.size())
            ran_beside[beside] = exact_beside_bounds(chain, s, plan[beside], p, budget, refused[s.engine]);
        else refused[s.engine] = chain.link(*plan_link(s, p), s, budget);
    }
    const std::optional<InputError>& bounds_refused = refused[engine_name::bounds];
    const std::optional<InputError>& exact_refused = refused[engine_name::exact];
    const std::optional<InputError>& smt_refused = refused[engine_name::smt];
    if (ranges && bounds_refused && exact_refused && smt_refused)
        throw InputError(bounds_refused->where(),
                         "no engine ranges over this workload: it has block-time intervals or issue windows; "
                         "--engine bounds refuses it (" +
                             bounds_refused->message() + "), --engine exact too (" + exact_refused->message() +
                             ") and --engine smt too (" + smt_refused->message() + ")");
    return chain.finish(stats_shown());
}

}  // namespace gpuwcrt
