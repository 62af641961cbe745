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

#include "bounds/interference/interference.hpp"
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
        run_.answers.resize(request.workload.ops.size());
        for (std::size_t i = 0; i < run_.answers.size(); ++i) {
            run_.answers[i].op = static_cast<int>(i);
            run_.answers[i].unknown_reason = "no engine decided it";
        }
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

    // One engine's run on the open operations, not yet kept: `refused` when it refused.
    struct Attempt {
        std::string name;
        Provenance by;
        Clock::time_point t0;
        EngineRun run;
        std::optional<InputError> refused;
    };
    // Safe on another thread while this one runs another attempt: reads the request only.
    Attempt attempt(const Engine& engine, const Budget& slice, const std::vector<int>& ops) const {
        Attempt a{std::string(engine.name()), engine.provenance(), Clock::now(), {}, std::nullopt};
        budget_.counters().phase = engine.name().data();  // the names are string literals (registry.hpp)
        try {
            a.run = engine.run(EngineRequest{rq_.workload, ops, rq_.options, rq_.settled, rq_.progress}, slice);
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
    // Keeps what improves each answer. Its step line: the name, the time, `detail` of its run,
    // what is still open; without a `detail`, the engine's own step lines. Returns the refusal.
    std::optional<InputError> keep(const Attempt& a, const std::function<std::string(const EngineRun&)>& detail) {
        if (a.refused) {
            step(a.name + ": not applicable (" + a.refused->message() + ")");
            return a.refused;
        }
        const EngineRun& r = a.run;
        add_stats(r);
        for (std::size_t op = 0; op < r.answers.size(); ++op)
            absorb(rq_.workload, run_.answers[op], r.answers[op], a.by);
        budget_.counters().decided = rq_.ops.size() - open().size();
        if (budget_.expired() && stopped_in_.empty()) stopped_in_ = a.name;
        const std::string stopped = budget_.expired() ? " (stopped on time)" : "";
        if (detail) step(a.name + ": " + seconds_since(a.t0) + detail(r) + stopped + ", " + open_text());
        else {
            run_.steps.insert(run_.steps.end(), r.steps.begin(), r.steps.end());  // already said by the engine
            if (!stopped.empty()) step(a.name + stopped + ", " + open_text());
        }
        return std::nullopt;
    }
    std::optional<InputError> link(const Engine& engine, const Budget& slice,
                                   const std::function<std::string(const EngineRun&)>& detail) {
        return keep(attempt(engine, slice, open()), detail);
    }

    // The interference bound first: it takes milliseconds, and under certify's deadlines it may
    // settle operations before any search starts.
    void add_interference_bounds() {
        const auto t0 = Clock::now();
        const InterferenceBounds b =
            interference_bounds(rq_.workload, budget_.slice(1, 4));  // stoppable: every value is proven
        int bounded = 0;
        for (int op : rq_.ops) {
            if (!b.response[op]) continue;
            WcrtAnswer x;
            x.op = op;
            x.upper = b.response[op];
            x.upper_by = Provenance::interference;
            absorb(rq_.workload, run_.answers[op], x, x.upper_by);
            ++bounded;
        }
        if (bounded > 0)
            step("interference: an upper bound for " + std::to_string(bounded) + " of " +
                 std::to_string(rq_.ops.size()) + " operations in " + seconds_since(t0) +
                 (b.stopped ? " (stopped on time)" : "") + ", " + open_text());
    }

    // Operations left without an upper bound (a step stopped on time before any pass proved
    // one) keep the busy-time bound of docs/encoding.md, proven for the SMT engine's scope.
    void add_busy_time_bounds(const BlockProblem& bp) {
        for (int op : rq_.ops) {
            WcrtAnswer& x = run_.answers[op];
            const std::int64_t k = bp.index_of_op(op);
            if (x.upper || k < 0) continue;
            WcrtAnswer busy;
            busy.op = op;
            busy.upper = bp.response_upper_bound(static_cast<int>(k));
            busy.upper_by = Provenance::busy_time;
            absorb(rq_.workload, x, busy, busy.upper_by);
        }
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
    std::string open_text() const {
        return std::to_string(open().size()) + " of " + std::to_string(rq_.ops.size()) + " open";
    }

    const EngineRequest& rq_;
    const Budget& budget_;
    Clock::time_point start_;
    EngineRun run_;
    std::string stopped_in_;  // the step the deadline stopped, if any
};

std::string no_detail(const EngineRun&) { return ""; }

std::string exact_detail(const EngineRun& r) {
    return ", " + std::to_string(r.stats.exact ? r.stats.exact->states : 0) + " states" +
           (r.complete ? "" : " (stopped)");
}

// What a link's step line adds: the exact engine its states, the abstraction nothing; the SMT
// link says its own lines (an empty function).
std::function<std::string(const EngineRun&)> step_detail(const PlanStep& s) {
    if (s.engine == engine_name::exact) return exact_detail;
    if (s.engine == engine_name::bounds) return no_detail;
    return {};
}

// The exact step's head start, in stored states: a search that ends before it runs alone (the
// pipelines and the small bench workloads, bench/RESULTS.md "plan"); after it the quick
// abstraction pass runs beside it, so that a search that cannot finish does not leave the run
// without upper bounds. It decides only when the pass starts, never what is printed: the
// pass's answers are kept only when the exact step does not settle everything, and then the
// pass has run to its end either way (beside, or after).
constexpr std::uint64_t exact_head_start_states = std::uint64_t(1) << 17;

// The exact step of the plan with the quick abstraction pass beside it (see above). Returns
// whether the pass ran (kept or not needed); `exact_refused` gets the exact engine's refusal.
bool exact_beside_bounds(Chain& chain, const PlanStep& s, const Budget& budget,
                         std::optional<InputError>& exact_refused) {
    const std::unique_ptr<Engine> exact = plan_link(s, nullptr);
    const std::vector<int> ops = chain.open();
    Chain::Attempt exact_try;
    std::exception_ptr error;
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    const auto stop_bounds = std::make_shared<std::atomic<bool>>(false);
    budget.counters().states = 0;
    std::thread worker([&] {
        try {
            exact_try = chain.attempt(*exact, budget, ops);
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
        const RunCounters& counters = budget.counters();
        while (!(alone = cv.wait_for(lock, std::chrono::milliseconds(10), [&] { return done; })) &&
               counters.states.load(std::memory_order_relaxed) < exact_head_start_states && !budget.expired()) {}
    }
    std::optional<Chain::Attempt> bounds_try;
    if (!alone) {
        PlanStep quick;
        quick.engine = engine_name::bounds;
        quick.quick = true;
        bounds_try = chain.attempt(*plan_link(quick, nullptr), budget.stopped_by(stop_bounds), ops);
    }
    worker.join();
    if (error) std::rethrow_exception(error);
    exact_refused = chain.keep(exact_try, exact_detail);
    if (!bounds_try) return false;
    if (*stop_bounds) chain.step("bounds: not needed, the exact step decided every operation");
    else chain.keep(*bounds_try, no_detail);
    return true;
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
    chain.add_interference_bounds();
    const bool ranges = has_ranges(w);
    bool quick_bounds_ran = false;
    for (const PlanStep& s : make_plan(w, !refused[engine_name::exact], p != nullptr)) {
        if (!chain.goes_on()) break;
        chain.step("plan: " + s.why);
        if (s.engine == engine_name::exact && s.bounds_beside)
            quick_bounds_ran = exact_beside_bounds(chain, s, budget, refused[s.engine]);
        else if (s.engine == engine_name::bounds && s.quick && quick_bounds_ran)
            continue;  // it ran beside the exact step
        else refused[s.engine] = chain.link(*plan_link(s, p), budget, step_detail(s));
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
    if (p) chain.add_busy_time_bounds(*p);
    return chain.finish(stats_shown());
}

}  // namespace gpuwcrt
