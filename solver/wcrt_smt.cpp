#include "solver/wcrt_smt.hpp"

#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "encode/block_encoding.hpp"
#include "solver/z3_session.hpp"

namespace gpuwcrt {
namespace {

using Clock = std::chrono::steady_clock;

struct Search {
    Search(const Workload& wl, const BlockProblem& pr, int op, const EngineOptions& o)
        : w(wl), p(pr), k(static_cast<int>(pr.index_of_op(op))), session(options(o)),
          enc(session.ctx(), pr, encoding_options(o, k)) {}

    // One query: the encoding plus "response > bound", on a fresh solver (z3_session.hpp).
    CheckResult check_exceeds(const Time& bound) {
        session.fresh_solver();
        session.solver().add(enc.constraints());
        session.solver().add(exceeds(bound));
        return session.check();
    }
    static SolverOptions options(const EngineOptions& o) {
        SolverOptions so;
        so.timeout = o.timeout;
        so.logic = "QF_FD";  // bounded integers and pseudo-Booleans, bit-blasted: docs/encoding.md
        if (const char* l = std::getenv("GPUWCRT_LOGIC")) so.logic = l;
        return so;
    }
    static BlockEncodingOptions encoding_options(const EngineOptions& o, int k) {
        BlockEncodingOptions eo;
        eo.policy = o.policy;
        eo.symmetry_breaking = o.symmetry_breaking;
        eo.objective_kernel = k;
        return eo;
    }

    // The model as a witness scenario and the schedule it claims.
    std::pair<WitnessScenario, Schedule> extract() {
        const int n = p.kernels();
        std::vector<int> pos(n);  // position in the EE order = number of kernels before it
        for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b)
                if (a != b && session.bool_value(enc.before(b, a))) ++pos[a];
        // Launch order: by issue time, ties in EE order (docs/encoding.md, "launch order").
        std::vector<int> order(n);
        std::iota(order.begin(), order.end(), 0);
        std::sort(order.begin(), order.end(), [&](int a, int b) {
            return p.issue[a] != p.issue[b] ? p.issue[a] < p.issue[b] : pos[a] < pos[b];
        });
        WitnessScenario x;
        Schedule claimed;
        x.sm.assign(w.ops.size(), {});
        for (int a : order) x.launch_order.push_back(p.op[a]);
        for (int a = 0; a < n; ++a) {
            for (std::int64_t j = 0; j < p.blocks[a]; ++j) {
                int sm = 0;
                for (int m = 0; m < p.sms; ++m)
                    if (session.bool_value(enc.on_sm(a, j, m))) sm = m;
                x.sm[p.op[a]].push_back(sm);
                const Time start = session.value(enc.start(a, j)) / p.scale;
                claimed.blocks.push_back({p.op[a], j, sm, start, start + w.ops[p.op[a]].time.hi});
            }
        }
        return {x, claimed};
    }

    // Replays the current model; returns the witness and its (verified) response.
    std::pair<WitnessScenario, Time> replayed_model() {
        auto [x, claimed] = extract();
        const Time response = session.value(enc.response(k)) / p.scale;
        replay_witness(w, x, p.op[k], response, &claimed);
        return {x, response};
    }

    z3::expr exceeds(const Time& bound) {
        // response_scaled > bound * scale, with integers: > floor(bound * scale)
        const Time scaled = bound * p.scale;
        BigInt fl = boost::multiprecision::numerator(scaled) / boost::multiprecision::denominator(scaled);
        if (scaled < 0 && fl * boost::multiprecision::denominator(scaled) != boost::multiprecision::numerator(scaled))
            fl -= 1;
        return enc.response(k) > session.ctx().int_val(fl.str().c_str());
    }

    const Workload& w;
    const BlockProblem& p;
    int k;
    Z3Session session;
    BlockEncoding enc;
};

// A real scenario's response as the first incumbent: the kernel launched last, others in
// file order, with a concrete placement (most-room where any SM is allowed).
std::pair<WitnessScenario, Time> first_incumbent(const Workload& w, int op, const EngineOptions& o) {
    Scenario sc;
    sc.policy = o.policy == Policy::chooser ? Policy::most_room : o.policy;
    sc.rank.resize(w.ops.size());
    for (std::size_t i = 0; i < w.ops.size(); ++i) sc.rank[i] = static_cast<long>(i);
    sc.rank[op] = static_cast<long>(w.ops.size());
    Schedule s = simulate(w, sc);
    return {witness_of(w, s), s.response(op)};
}

}  // namespace

WcrtAnswer smt_maximise(const Workload& w, const BlockProblem& p, int op, const EngineOptions& o,
                        EngineStats& stats) {
    const auto t0 = Clock::now();
    Search s(w, p, op, o);
    WcrtAnswer a;
    a.op = op;
    auto [x, best] = first_incumbent(w, op, o);
    a.witness = x;
    a.wcrt = best;
    for (;;) {
        ++stats.solver_calls;
        CheckResult r = s.check_exceeds(best);
        if (r.answer == Answer::unsat) {
            a.status = WcrtStatus::exact;
            break;
        }
        if (r.answer == Answer::unknown) {
            a.status = WcrtStatus::unknown;
            a.unknown_reason = to_string(r.reason);
            break;
        }
        auto [wx, resp] = s.replayed_model();
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
    auto [x, r0] = first_incumbent(w, op, o);
    if (r0 > bound) {  // a simulated scenario already violates the bound
        replay_witness(w, x, op, r0);
        a.verdict = Verdict::refuted;
        a.counterexample = x;
        a.response = r0;
    } else {
        Search s(w, p, op, o);
        ++stats.solver_calls;
        CheckResult r = s.check_exceeds(bound);
        if (r.answer == Answer::unsat) {
            a.verdict = Verdict::certified;
        } else if (r.answer == Answer::unknown) {
            a.verdict = Verdict::unknown;
            a.unknown_reason = to_string(r.reason);
        } else {
            auto [wx, resp] = s.replayed_model();
            a.verdict = Verdict::refuted;
            a.counterexample = wx;
            a.response = resp;
        }
    }
    stats.elapsed += std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0);
    return a;
}

}  // namespace gpuwcrt
