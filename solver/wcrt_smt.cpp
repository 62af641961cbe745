#include "solver/wcrt_smt.hpp"

#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "encode/block_encoding.hpp"
#include "encode/time_indexed_encoding.hpp"
#include "solver/incumbent_search.hpp"
#include "solver/z3_session.hpp"

namespace gpuwcrt {
namespace {

using Clock = std::chrono::steady_clock;

SolverOptions solver_options(const EngineOptions& o) {
    SolverOptions so;
    so.timeout = o.timeout;
    so.logic = "QF_FD";  // bounded integers and pseudo-Booleans, bit-blasted: docs/encoding.md
    return so;
}

BlockEncodingOptions encoding_options(const EngineOptions& o, int k) {
    BlockEncodingOptions eo;
    eo.policy = o.policy;
    eo.symmetry_breaking = o.symmetry_breaking;
    eo.objective_kernel = k;
    return eo;
}

// floor(bound * scale), clamped to what a scaled schedule can reach.
std::int64_t scaled_floor(const Time& bound, const BlockProblem& p) {
    const Time scaled = bound * p.scale;
    BigInt fl = boost::multiprecision::numerator(scaled) / boost::multiprecision::denominator(scaled);
    if (scaled < 0 && Time(fl) != scaled) fl -= 1;
    if (fl < -1) return -1;
    if (fl > BigInt(p.horizon) * 4 + 1) return p.horizon * 4 + 1;
    return static_cast<std::int64_t>(fl);
}

struct SearchBase {
    virtual ~SearchBase() = default;
    virtual CheckResult check_exceeds(const Time& bound) = 0;
    virtual std::pair<WitnessScenario, Time> replayed_model() = 0;
};

// One bound query after another on one encoding. Queries on the time-indexed encoding are
// assumptions on one incremental solver; the event encoding's bound is a new integer atom,
// which Z3's QF_FD solver only bit-blasts before its first check, so it gets a fresh solver.
template <class Encoding>
struct Search : SearchBase {
    Search(const Workload& wl, const BlockProblem& pr, int op, const EngineOptions& o)
        : w(wl), p(pr), k(static_cast<int>(pr.index_of_op(op))), session(solver_options(o)),
          enc(session.ctx(), pr, encoding_options(o, k)) {
        if constexpr (incremental) session.solver().add(enc.constraints());
    }
    static constexpr bool incremental = std::is_same_v<Encoding, TimeIndexedEncoding>;

    CheckResult check_exceeds(const Time& bound) override {
        const z3::expr goal = enc.response_exceeds(k, scaled_floor(bound, p));
        if constexpr (incremental) {
            z3::expr_vector assumptions(session.ctx());
            z3::expr lit = session.ctx().bool_const(("goal_" + std::to_string(++goals)).c_str());
            session.solver().add(z3::implies(lit, goal));
            assumptions.push_back(lit);
            return session.check(assumptions);
        } else {
            session.fresh_solver();
            session.solver().add(enc.constraints());
            session.solver().add(goal);
            return session.check();
        }
    }

    // The model as a witness scenario and the schedule it claims, replayed by the simulator.
    std::pair<WitnessScenario, Time> replayed_model() override {
        const z3::model model = session.model();
        const int n = p.kernels();
        std::vector<int> pos(n);  // position in the EE order = number of kernels before it
        for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b)
                if (a != b && model.eval(enc.before(b, a), true).is_true()) ++pos[a];
        // Launch order: by issue time, ties in EE order (docs/encoding.md, "Launch order").
        std::vector<int> order(n);
        std::iota(order.begin(), order.end(), 0);
        std::sort(order.begin(), order.end(), [&](int a, int b) {
            return p.issue[a] != p.issue[b] ? p.issue[a] < p.issue[b] : pos[a] < pos[b];
        });
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

    const Workload& w;
    const BlockProblem& p;
    int k;
    Z3Session session;
    Encoding enc;
    int goals = 0;
};

std::unique_ptr<SearchBase> make_search(const Workload& w, const BlockProblem& p, int op, const EngineOptions& o) {
    bool time_indexed = o.encoding == EncodingChoice::time_indexed;
    if (o.encoding == EncodingChoice::automatic)
        time_indexed = o.policy != Policy::round_robin && TimeIndexedEncoding::estimated_terms(p) <= 50'000'000;
    if (time_indexed) return std::make_unique<Search<TimeIndexedEncoding>>(w, p, op, o);
    return std::make_unique<Search<BlockEncoding>>(w, p, op, o);
}

// A real scenario as the first incumbent: local search by simulation (incumbent_search.hpp),
// whose budget grows with the number of operations and stays a small part of one SAT check.
std::pair<WitnessScenario, Time> first_incumbent(const Workload& w, int op, const EngineOptions& o) {
    if (o.incumbent_simulations == 0) {
        Scenario sc;
        sc.policy = o.policy == Policy::chooser ? Policy::most_room : o.policy;
        sc.rank.resize(w.ops.size());
        for (std::size_t i = 0; i < w.ops.size(); ++i) sc.rank[i] = static_cast<long>(i);
        sc.rank[static_cast<std::size_t>(op)] = static_cast<long>(w.ops.size());
        Schedule s = simulate(w, sc);
        return {witness_of(w, s), s.response(op)};
    }
    const long budget =
        o.incumbent_simulations > 0 ? o.incumbent_simulations : 100 * static_cast<long>(w.ops.size());
    // A tenth of the time budget at most, so that a huge workload cannot overrun --timeout here.
    std::optional<Clock::time_point> deadline;
    if (o.timeout) deadline = Clock::now() + *o.timeout / 10;
    Incumbent inc = search_incumbent(w, op, o.policy, budget, 1, deadline);
    return {inc.witness, inc.response};
}

}  // namespace

WcrtAnswer smt_maximise(const Workload& w, const BlockProblem& p, int op, const EngineOptions& o,
                        EngineStats& stats) {
    const auto t0 = Clock::now();
    WcrtAnswer a;
    a.op = op;
    const Time upper = p.response_upper_bound(static_cast<int>(p.index_of_op(op)));
    a.upper_bound = upper;
    auto [x, best] = first_incumbent(w, op, o);
    a.witness = x;
    a.wcrt = best;
    require_within_bound(w, op, best, upper);
    // A real scenario that reaches the proven bound needs no solver to be exact.
    std::unique_ptr<SearchBase> search = best >= upper ? nullptr : make_search(w, p, op, o);
    if (!search) a.status = WcrtStatus::exact;
    while (search) {
        ++stats.solver_calls;
        CheckResult r = search->check_exceeds(best);
        if (r.answer == Answer::unsat) {
            a.status = WcrtStatus::exact;
            a.upper_bound = best;
            break;
        }
        if (r.answer == Answer::unknown) {
            a.status = WcrtStatus::unknown;
            a.unknown_reason = to_string(r.reason);
            break;
        }
        auto [wx, resp] = search->replayed_model();
        require_within_bound(w, op, resp, upper);
        a.witness = wx;
        a.wcrt = best = resp;
    }
    stats.elapsed += std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0);
    return a;
}

CertifyAnswer smt_certify(const Workload& w, const BlockProblem& p, int op, const Time& bound,
                          const EngineOptions& o, EngineStats& stats) {
    const auto t0 = Clock::now();
    CertifyAnswer a;
    a.op = op;
    a.bound = bound;
    const Time upper = p.response_upper_bound(static_cast<int>(p.index_of_op(op)));
    if (upper <= bound) {  // proven by the busy-time argument alone (docs/encoding.md, "Horizon")
        a.verdict = Verdict::certified;
        a.busy_time_bound = upper;
        stats.elapsed += std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0);
        return a;
    }
    auto [x, r0] = first_incumbent(w, op, o);
    if (r0 > bound) {  // a simulated scenario already violates the bound
        replay_witness(w, x, op, r0);
        a.verdict = Verdict::refuted;
        a.counterexample = x;
        a.response = r0;
    } else {
        auto search = make_search(w, p, op, o);
        ++stats.solver_calls;
        CheckResult r = search->check_exceeds(bound);
        if (r.answer == Answer::unsat) {
            a.verdict = Verdict::certified;
        } else if (r.answer == Answer::unknown) {
            a.verdict = Verdict::unknown;
            a.unknown_reason = to_string(r.reason);
        } else {
            auto [wx, resp] = search->replayed_model();
            a.verdict = Verdict::refuted;
            a.counterexample = wx;
            a.response = resp;
        }
    }
    stats.elapsed += std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0);
    return a;
}

}  // namespace gpuwcrt
