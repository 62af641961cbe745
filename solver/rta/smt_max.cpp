#include "solver/rta/smt_max.hpp"

#include <cstdlib>
#include <iostream>
#include <stdexcept>

#include "bounds/rta/rta.hpp"
#include "encode/rta/rta_encoding.hpp"
#include "solver/z3/z3_session.hpp"

namespace gpuwcrt::rta_orders {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<int> order_of(Z3Session& session, const RtaEncoding& e) {
    std::vector<int> order;
    for (const auto& row : e.at)
        for (std::size_t j = 0; j < row.size(); ++j)
            if (session.bool_value(row[j])) order.push_back(static_cast<int>(j));
    return order;
}

}  // namespace

std::vector<std::int64_t> reference_finish(const RtaOrderProblem& p, const std::vector<int>& order) {
    std::vector<RtaKernel> in;
    for (int j : order) in.push_back({Time(p.release[j]), Time(p.c[j]), p.slots[j]});
    const std::vector<Time> f = rta_algorithm2(in, p.g_max);
    std::vector<std::int64_t> out(p.kernels());
    for (std::size_t i = 0; i < order.size(); ++i) out[order[i]] = static_cast<std::int64_t>(numerator(f[i]));
    return out;
}

SearchResult smt_max_finish(const RtaOrderProblem& p, const Budget& budget, std::optional<int> only) {
    SearchResult r;
    r.finish.resize(p.kernels());
    r.order.resize(p.kernels());
    r.found.resize(p.kernels());
    r.bound.resize(p.kernels());
    if (p.kernels() == 0) {
        r.complete = true;
        return r;
    }
    auto fail = [&] {
        r.finish.assign(p.kernels(), std::nullopt);
        r.order.assign(p.kernels(), {});
        return r;
    };
    SolverOptions so;
    so.budget = budget;
    // Bounded integers bit-blasted: the sorted-insertion terms are all comparisons, which the
    // QF_FD core propagates; Z3's default arithmetic is far slower on them.
    so.logic = "QF_FD";
    try {
        Z3Session session(so);
        const RtaEncoding e = encode_rta_orders(session.ctx(), session.solver(), p, budget);
        if (e.interrupted) return fail();
        for (int k = 0; k < p.kernels(); ++k) {
            if (only && k != *only) continue;
            // The first incumbent: the file order (any order is one).
            std::vector<int> best_order = complete_order(p, {});
            std::int64_t best = reference_finish(p, best_order)[k];
            session.solver().push();
            // Monotonicity (docs/rta/rta-soundness.md): analysing more kernels before k never makes
            // f_k earlier, so k after every kernel that may precede it loses no maximum.
            for (int j = 0; j < p.kernels(); ++j)
                if (j != k && p.may_precede(j, k)) session.solver().add(e.position[j] < e.position[k]);
            for (;;) {
                session.solver().add(e.finish[k] > session.ctx().int_val(best));
                ++r.nodes;
                const auto c0 = Clock::now();
                const CheckResult c = session.check();
                if (std::getenv("GPUWCRT_DEBUG"))
                    std::cerr << "rta smt: k=" << k << " f > " << best << ": " << to_string(c.answer) << " in "
                              << std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - c0).count()
                              << " ms\n";
                if (c.answer == Answer::unsat) break;
                if (c.answer == Answer::unknown) {
                    if (std::getenv("GPUWCRT_DEBUG")) std::cerr << "rta smt: unknown: " << c.reason_text << "\n";
                    return fail();
                }
                const std::vector<int> order = order_of(session, e);
                const std::int64_t claimed = static_cast<std::int64_t>(session.int_value(e.finish[k]));
                const std::int64_t replayed = reference_finish(p, order)[k];
                if (replayed != claimed)
                    throw std::logic_error("RTA encoding: order gives f = " + std::to_string(replayed) +
                                           " by Algorithm 2 but " + std::to_string(claimed) + " in the model");
                best = replayed;
                best_order = order;
            }
            session.solver().pop();
            r.finish[k] = best;
            r.order[k] = best_order;
        }
    } catch (const RtaEncodingTooLarge&) {
        return fail();
    } catch (const std::bad_alloc&) {
        return fail();
    } catch (const z3::exception& ex) {
        if (!is_memory_exhaustion(ex)) throw;
        return fail();
    }
    r.complete = true;
    return r;
}

}  // namespace gpuwcrt::rta_orders
