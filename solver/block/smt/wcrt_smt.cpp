#include "solver/block/smt/wcrt_smt.hpp"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <numeric>

#include "bounds/engine_options.hpp"
#include "bounds/engine_stats.hpp"
#include "encode/block/block_encoding.hpp"
#include "encode/block/encoding_size.hpp"
#include "encode/block/time_indexed_encoding.hpp"
#include "model/rounding.hpp"
#include "sim/search/incumbent.hpp"
#include "solver/z3/z3_session.hpp"

namespace gpuwcrt {
namespace {

using Clock = Budget::Clock;

bool keep_timed_out = false;  // keep_timed_out_solvers_allocated()
// Z3 4.8.12 is not reliable once it has run out of memory: creating a context afterwards
// returned null and crashed the process (seen with --max-memory 64 on a 20-kernel workload).
// So after the first exhaustion no new solver is started; later calls answer "memory limit".
bool z3_ran_out_of_memory = false;

// The encoding would not fit its share of the memory budget (estimated before building it, or
// measured while building): the call answers "unknown (memory limit)". Z3 itself did not run
// out, so later calls may still use it.
struct EncodingTooLarge {};

// The memory an encoding may take: half of the budget's, so that the search has the other half
// (Z3's clauses and learnt lemmas, capped by its max_memory, Z3Session).
std::size_t encoding_share(const Budget& budget) { return budget.memory_bytes / 2; }

// The encoding make_search builds. The time-indexed encoding has a literal per block and
// instant: on a fine time scale (even a small kernel with a long block time needs gigabytes)
// the event encoding, whose size does not depend on the scale, is the one to build, if it
// covers the workload at all.
bool builds_time_indexed(const BlockProblem& p, const EngineOptions& o) {
    if (o.encoding == EncodingChoice::time_indexed || p.extended()) return true;
    if (o.encoding != EncodingChoice::automatic) return false;
    return o.policy != Policy::round_robin && p.horizon <= 100'000 &&
           TimeIndexedEncoding::estimated_terms(p) <= 50'000'000;
}

// One engine call: every step below runs under the call's budget, and reports as the operation.
struct Call {
    const Budget& budget;
    const ProgressSink& progress;
    std::string op_name;
    void say(const std::string& line) const {
        if (progress) progress(op_name + ": " + line);
    }
};

SolverOptions solver_options(const Call& call) {
    SolverOptions so;
    so.budget = call.budget;             // what is left of the call's budget, not a fresh timeout
    so.owner_leaks_if_abandoned = true;  // discard() never frees an abandoned search
    so.logic = "QF_FD";                  // bounded integers and pseudo-Booleans, bit-blasted: docs/theory/encoding.md
    return so;
}

BlockEncodingOptions encoding_options(const EngineOptions& o, int k, const Call& call, const std::string& what) {
    BlockEncodingOptions eo;
    eo.policy = o.policy;
    eo.symmetry_breaking = o.symmetry_breaking;
    if (k >= 0) eo.objective_kernel = k;
    eo.budget = call.budget;
    eo.budget.memory_bytes = encoding_share(call.budget);
    eo.progress = [&call, what](const std::string& family) { call.say(what + ": " + family); };
    return eo;
}

// floor(bound * scale), clamped to what a scaled schedule can reach.
std::int64_t scaled_floor(const Time& bound, const BlockProblem& p) {
    const BigInt fl = floor_of(bound * p.scale);
    if (fl < -1) return -1;
    if (fl > BigInt(p.horizon) * 4 + 1) return p.horizon * 4 + 1;
    return static_cast<std::int64_t>(fl);
}

struct SearchBase {
    virtual ~SearchBase() = default;
    virtual CheckResult check_exceeds(const Time& bound) = 0;
    virtual std::pair<WitnessScenario, Time> replayed_model() = 0;
    virtual bool interrupted() const = 0;  // the deadline passed while the encoding was built
    virtual bool abandoned() const = 0;    // a check still runs on its own thread: never free
};

// One bound query after another on one encoding. Queries on the time-indexed encoding are
// assumptions on one incremental solver; the event encoding's bound is a new integer atom,
// which Z3's QF_FD solver only bit-blasts before its first check, so it gets a fresh solver.
template <class Encoding>
struct SmtSearch : SearchBase {
    SmtSearch(const Workload& wl, const BlockProblem& pr, int op, const EngineOptions& o, const Call& call)
        : w(wl),
          p(pr),
          op(op),
          k(static_cast<int>(pr.index_of_op(op))),
          session(solver_options(call)),
          enc(session.ctx(), pr, encoding_options(o, k, call, encoding_name(pr))) {
        if constexpr (incremental)
            if (!interrupted()) session.solver().add(enc.constraints());
    }
    bool interrupted() const override { return enc.interrupted(); }
    bool abandoned() const override { return session.abandoned(); }
    static constexpr const char* kind = std::is_same_v<Encoding, TimeIndexedEncoding> ? "time-indexed" : "event";
    static std::string encoding_name(const BlockProblem& pr) {
        std::int64_t blocks = 0;
        for (std::int64_t g : pr.blocks) blocks += g;
        return std::string("building the ") + kind + " encoding (" + std::to_string(pr.kernels()) + " kernels, " +
               std::to_string(blocks) + " blocks, horizon " + std::to_string(pr.horizon) + ")";
    }
    static constexpr bool incremental = std::is_same_v<Encoding, TimeIndexedEncoding>;

    CheckResult check_exceeds(const Time& bound) override {
        if constexpr (incremental) {
            const z3::expr goal = enc.op_response_exceeds(op, scaled_floor(bound, p));
            z3::expr_vector assumptions(session.ctx());
            z3::expr lit = session.ctx().bool_const(("goal_" + std::to_string(++goals)).c_str());
            session.solver().add(z3::implies(lit, goal));
            assumptions.push_back(lit);
            return session.check(assumptions);
        } else {
            const z3::expr goal = enc.response_exceeds(k, scaled_floor(bound, p));
            session.fresh_solver();
            session.solver().add(enc.constraints());
            session.solver().add(goal);
            return session.check();
        }
    }

    // The model as a witness scenario and the schedule it claims, replayed by the simulator.
    std::pair<WitnessScenario, Time> replayed_model() override {
        if constexpr (incremental)
            if (p.extended()) return replayed_operations_model();
        const z3::model model = session.model();
        const int n = p.kernels();
        std::vector<int> pos(n);  // position in the EE order = number of kernels before it
        for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b)
                if (a != b && model.eval(enc.before(b, a), true).is_true()) ++pos[a];
        // Launch order: by issue time, ties in EE order (docs/theory/encoding.md, "Launch order").
        std::vector<int> order(n);
        std::iota(order.begin(), order.end(), 0);
        std::sort(order.begin(), order.end(),
                  [&](int a, int b) { return p.issue[a] != p.issue[b] ? p.issue[a] < p.issue[b] : pos[a] < pos[b]; });
        WitnessScenario x;
        Schedule claimed;
        x.sm.assign(w.ops.size(), {});
        for (int a : order) x.launch_order.push_back(p.op[a]);
        std::int64_t last_start = 0;
        for (int a = 0; a < n; ++a)
            for (std::int64_t j = 0; j < p.blocks[a]; ++j) {
                int sm = 0;
                for (int m = 0; m < p.sms; ++m)
                    if (model.eval(enc.on_sm(a, j, m), true).is_true()) sm = m;
                x.sm[p.op[a]].push_back(sm);
                const std::int64_t s = enc.start_in(model, a, j);
                if (a == k) last_start = s;
                const Time start = p.to_time(s);
                claimed.blocks.push_back({p.op[a], j, sm, start, start + w.ops[p.op[a]].time.hi});
            }
        const Time response = p.to_time(last_start + p.block_time[k] - p.issue[k]);
        replay_witness(w, x, p.op[k], response, &claimed);
        return {x, response};
    }

    // With the operation-level families the model has its own launch order over every
    // operation, and the objective may be a copy or have a variable issue instant.
    std::pair<WitnessScenario, Time> replayed_operations_model() {
        const z3::model model = session.model();
        const int n = p.ops();
        std::vector<int> pos(n);
        for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b)
                if (a != b && model.eval(enc.launched_before(b, a), true).is_true()) ++pos[a];
        WitnessScenario x;
        x.launch_order.resize(n);
        for (int a = 0; a < n; ++a) x.launch_order[pos[a]] = a;  // a strict total order: positions differ
        x.sm.assign(w.ops.size(), {});
        // The grid values the model chose: every block's (copy's) duration, every window's instant.
        x.block_time.assign(w.ops.size(), {});
        x.issue.assign(w.ops.size(), std::nullopt);
        for (int o = 0; o < n; ++o) {
            if (p.duration_varies(o)) {
                const std::int64_t units = p.kernel_of_op[o] >= 0 ? p.blocks[p.kernel_of_op[o]] : 1;
                for (std::int64_t j = 0; j < units; ++j)
                    x.block_time[o].push_back(p.to_time(enc.duration_in(model, o, j)));
            }
            if (p.issue_hi[o] > p.issue_value[o]) x.issue[o] = p.to_time(enc.window_instant_in(model, o));
        }
        Schedule claimed;
        for (int a = 0; a < p.kernels(); ++a)
            for (std::int64_t j = 0; j < p.blocks[a]; ++j) {
                int sm = 0;
                for (int m = 0; m < p.sms; ++m)
                    if (model.eval(enc.on_sm(a, j, m), true).is_true()) sm = m;
                x.sm[p.op[a]].push_back(sm);
                const Time start = p.to_time(enc.start_in(model, a, j));
                const Time length = p.to_time(enc.duration_in(model, p.op[a], j));
                claimed.blocks.push_back({p.op[a], j, sm, start, start + length});
            }
        const Time response = p.to_time(enc.op_finish_in(model, op) - enc.op_issue_in(model, op));
        replay_witness(w, x, op, response, &claimed);
        return {x, response};
    }

    const Workload& w;
    const BlockProblem& p;
    int op;
    int k;  // -1 when the objective is a copy
    Z3Session session;
    Encoding enc;
    int goals = 0;
};

// After a timeout that ends the run, hands a large solver to the process instead of freeing it,
// if so configured. `large`: built or searched for long enough that freeing it would take long
// too (a call that started with a few milliseconds left builds little and frees it at once).
// A call whose budget is a part of the run (auto's SMT step gives each operation a slice) frees
// its solver: the calls after it would otherwise pile up every solver in memory.
void discard(std::unique_ptr<SearchBase>& search, const Budget& budget, bool large = true) {
    // After an exhaustion Z3_del_context itself can crash (SIGSEGV under --max-memory 200 on a
    // 20-kernel workload): a context that ran out of memory is never freed.
    const bool run_ends = keep_timed_out && budget.leave_table_on_timeout && large && budget.expired();
    if (search && (z3_ran_out_of_memory || search->abandoned() || run_ends))
        (void)search.release();  // deliberately leaked: see the header
    search.reset();
}

// Throws BudgetExhausted when the deadline passes while the encoding is built, EncodingTooLarge
// when it would exceed its share of the memory (estimated before, or measured while building).
std::unique_ptr<SearchBase> make_search(const Workload& w, const BlockProblem& p, int op, const EngineOptions& o,
                                        const Call& call) {
    call.budget.check();  // past the deadline not even a Z3 context
    if (z3_ran_out_of_memory) throw std::bad_alloc();
    if (smt_memory_refusal(p, o, call.budget)) throw EncodingTooLarge{};
    const auto start = Clock::now();
    std::unique_ptr<SearchBase> search;
    if (builds_time_indexed(p, o)) search = std::make_unique<SmtSearch<TimeIndexedEncoding>>(w, p, op, o, call);
    else search = std::make_unique<SmtSearch<BlockEncoding>>(w, p, op, o, call);
    if (search->interrupted()) {
        // Freeing a half-built encoding takes about as long as building it took.
        discard(search, call.budget, Clock::now() - start > std::chrono::milliseconds(50));
        if (!call.budget.expired()) throw EncodingTooLarge{};  // stopped by its memory share
        throw BudgetExhausted(StopReason::timeout);
    }
    return search;
}

// A real scenario as the first incumbent: local search by simulation (sim/search/incumbent.hpp),
// whose budget grows with the number of operations and stays a small part of one SAT check.
std::pair<WitnessScenario, Time> first_incumbent(const Workload& w, int op, const EngineOptions& o,
                                                 const Budget& budget) {
    if (o.incumbent_simulations == 0) {
        Scenario sc;
        sc.policy = o.policy == Policy::chooser ? Policy::most_room : o.policy;
        sc.rank.resize(w.ops.size());
        for (std::size_t i = 0; i < w.ops.size(); ++i) sc.rank[i] = static_cast<long>(i);
        sc.rank[static_cast<std::size_t>(op)] = static_cast<long>(w.ops.size());
        Schedule s = simulate(w, sc);
        return {witness_of(w, s), s.response(op)};
    }
    const long simulations =
        o.incumbent_simulations > 0 ? o.incumbent_simulations : 100 * static_cast<long>(w.ops.size());
    // A tenth of the time left at most, so that a huge workload cannot overrun --timeout here.
    search::Incumbent inc = search::search_incumbent(w, op, o.policy, simulations, 1, budget.slice(1, 10));
    return {inc.witness, inc.response};
}

// Runs one engine call's search: the deadline passing while the encoding is built, or memory
// running out anywhere, ends it as "unknown" (through `stop`) instead of an internal error.
template <class Body>
void guarded(std::unique_ptr<SearchBase>& search, const Budget& budget,
             const std::function<void(const std::string&)>& stop, Body&& body) {
    try {
        body();
    } catch (const BudgetExhausted& e) {
        stop(to_string(e.reason));
    } catch (const EncodingTooLarge&) {
        stop(to_string(StopReason::memory));
    } catch (const std::bad_alloc&) {
        z3_ran_out_of_memory = true;  // the search may be inside Z3: discard() keeps it
        discard(search, budget, false);
        stop(to_string(StopReason::memory));
    } catch (const z3::exception& e) {
        if (!is_memory_exhaustion(e)) throw;
        z3_ran_out_of_memory = true;
        discard(search, budget, false);
        stop(to_string(StopReason::memory));
    }
}

}  // namespace

void keep_timed_out_solvers_allocated(bool keep) { keep_timed_out = keep; }

std::optional<std::string> smt_memory_refusal(const BlockProblem& p, const EngineOptions& o, const Budget& budget) {
    const bool time_indexed = builds_time_indexed(p, o);
    const std::uint64_t need = time_indexed ? time_indexed_bytes(p, o.policy) : event_bytes(p, o.policy);
    const std::size_t share = encoding_share(budget);
    if (need <= share) return std::nullopt;
    constexpr std::uint64_t mib = 1 << 20;
    return std::string("its ") + (time_indexed ? "time-indexed" : "event") + " encoding would take about " +
           std::to_string(need / mib) + " MiB, more than its share of the memory budget (" +
           std::to_string(share / mib) + " MiB: half of what --max-memory leaves the engines)";
}

void require_smt_covers(const BlockProblem& p, const EngineOptions& o) {
    if (!p.extended()) return;
    std::string features;
    for (const auto& [has, name] :
         {std::pair{p.has_copies, "copies"}, std::pair{p.has_priorities, "priorities"},
          std::pair{p.has_null, "the NULL stream"}, std::pair{p.has_after_idle, "after_stream_idle"},
          std::pair{p.has_intervals, "block-time intervals"}, std::pair{p.has_windows, "issue windows"}})
        if (has) features += (features.empty() ? " " : ", ") + std::string(name);
    // Only the time-indexed encoding has the operation-level families (docs/theory/encoding.md).
    if (o.encoding == EncodingChoice::event)
        throw InputError({"gpuwcrt", 0, 0},
                         "the event encoding cannot take this workload: it has" + features +
                             ", which only the time-indexed encoding takes (docs/theory/encoding.md)");
}

WcrtAnswer smt_maximise(const Workload& w, const BlockProblem& p, int op, const EngineOptions& o, const Budget& budget,
                        EngineStats& stats, const ProgressSink& progress) {
    require_smt_covers(p, o);
    const auto t0 = Clock::now();
    const Call call{budget, progress, w.ops[op].name};
    WcrtAnswer a;
    a.op = op;
    const Time upper = p.op_response_upper_bound(op);
    a.upper = upper;
    const auto stop = [&](const std::string& why) {
        a.status = WcrtStatus::unknown;
        a.unknown_reason = why;
    };
    std::unique_ptr<SearchBase> search;
    // Past the deadline not even one simulation: on a huge workload it alone could overrun
    // --timeout by seconds, once per operation.
    if (budget.expired()) stop("timeout");
    else
        guarded(search, budget, stop, [&] {
            auto [x, best] = first_incumbent(w, op, o, budget);
            require_within_bound(w, op, best, upper);
            a.witness = std::move(x);
            a.lower = best;
            // A real scenario that reaches the proven bound needs no solver to be exact.
            if (best < upper) search = make_search(w, p, op, o, call);
            if (!search) a.status = WcrtStatus::exact;
            while (search) {
                ++stats.solver_calls;
                call.say("solver check " + std::to_string(stats.solver_calls) + ": can the response exceed " +
                         human_string(best) + "?");
                CheckResult r = search->check_exceeds(best);
                if (r.answer == Answer::unsat) {
                    if (p.has_ranges()) {  // the grid maximum: exact only when it meets the busy-time bound
                        if (best != upper) stop(grid_maximum_reason(p.grid()));
                        else a.status = WcrtStatus::exact;
                        a.upper_by = Provenance::busy_time;
                        break;
                    }
                    a.status = WcrtStatus::exact;
                    a.upper = best;
                    break;
                }
                if (r.answer == Answer::unknown) {
                    if (r.reason == UnknownReason::memory) z3_ran_out_of_memory = true;  // before discard()
                    stop(to_string(r.reason));
                    break;
                }
                auto [wx, resp] = search->replayed_model();
                require_within_bound(w, op, resp, upper);
                a.witness = std::move(wx);  // the witness and its response change together
                a.lower = best = std::move(resp);
            }
            discard(search, budget);
        });
    stats.elapsed += std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0);
    return a;
}

CertifyAnswer smt_certify(const Workload& w, const BlockProblem& p, int op, const Time& bound, const EngineOptions& o,
                          const Budget& budget, EngineStats& stats, const ProgressSink& progress) {
    require_smt_covers(p, o);
    const auto t0 = Clock::now();
    const Call call{budget, progress, w.ops[op].name};
    CertifyAnswer a;
    a.op = op;
    a.bound = bound;
    const Time upper = p.op_response_upper_bound(op);
    const auto stop = [&](const std::string& why) {
        a.verdict = Verdict::unknown;
        a.unknown_reason = why;
    };
    if (upper <= bound) {  // proven by the busy-time argument alone (docs/theory/encoding.md, "Horizon")
        a.verdict = Verdict::certified;
        a.busy_time_bound = upper;
        stats.elapsed += std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0);
        return a;
    }
    std::unique_ptr<SearchBase> search;
    if (budget.expired()) stop("timeout");  // as in smt_maximise
    else
        guarded(search, budget, stop, [&] {
            auto [x, r0] = first_incumbent(w, op, o, budget);
            if (r0 > bound) {  // a simulated scenario already violates the bound
                replay_witness(w, x, op, r0);
                a.verdict = Verdict::refuted;
                a.counterexample = std::move(x);
                a.response = r0;
            } else {
                search = make_search(w, p, op, o, call);
                ++stats.solver_calls;
                call.say("solver check: can the response exceed " + human_string(bound) + "?");
                CheckResult r = search->check_exceeds(bound);
                if (r.answer == Answer::unsat) {
                    if (p.has_ranges()) stop(grid_certify_reason(p.grid()));  // the grid is not every scenario
                    else a.verdict = Verdict::certified;
                } else if (r.answer == Answer::unknown) {
                    if (r.reason == UnknownReason::memory) z3_ran_out_of_memory = true;  // before discard()
                    stop(to_string(r.reason));
                } else {
                    auto [wx, resp] = search->replayed_model();
                    a.counterexample = std::move(wx);
                    a.response = std::move(resp);
                    a.verdict = Verdict::refuted;
                }
                discard(search, budget);
            }
        });
    stats.elapsed += std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0);
    return a;
}

}  // namespace gpuwcrt
