// Round-robin placement (docs/theory/semantics.md §5) in the time-indexed encoding: a block goes to the first SM,
// cyclically after the SM of the block dispatched just before it (of any kernel, either
// priority), where it fits. The time-indexed encoding has no dispatch sequence of its own, so
// this file rebuilds it from the start literals (the "dispatch sequence" family) and fixes
// each block's SM from its immediate predecessor's (the "round-robin" family). It implements
// the rule of sim/placement.cpp (Policy::round_robin) with the dispatch order of
// sim/rules.cpp x1_a2_g3_dispatch_blocks; docs/theory/encoding.md, "Round-robin", gives the proof.
#include "encode/block/time_indexed_encoding.hpp"

namespace gpuwcrt {

// Among blocks dispatched at one instant (x1_a2_g3_dispatch_blocks): the high EE queue
// before the low one (A2), FIFO within a queue (X1, G3), block index within a kernel.
z3::expr TimeIndexedEncoding::first_at_same_instant(const Block& a, const Block& b) const {
    if (a.k == b.k) return ctx_.bool_val(a.j < b.j);
    if (same_queue(a.k, b.k)) return before_[a.k][b.k];
    return ctx_.bool_val(p_.high[a.k]);
}

// dispatched_before_[a][b]: a is dispatched before b, i.e. starts earlier, or at the same
// instant and first there. A strict total order on blocks (every block starts by the horizon).
void TimeIndexedEncoding::rule_dispatch_sequence() {
    const std::size_t n = blocks_.size();
    dispatched_before_.assign(n, std::vector<z3::expr>(n, ctx_.bool_val(false)));
    for (std::size_t ia = 0; ia < n; ++ia)
        for (std::size_t ib = ia + 1; ib < n; ++ib) {
            const Block& a = blocks_[ia];
            const Block& b = blocks_[ib];
            if (a.k == b.k) {  // blocks_ is kernel-major: a.j < b.j, and X1 starts them in order
                dispatched_before_[ia][ib] = ctx_.bool_val(true);
                continue;
            }
            z3::expr x = ctx_.bool_const(("seq_" + std::to_string(ia) + "_" + std::to_string(ib)).c_str());
            dispatched_before_[ia][ib] = x;
            dispatched_before_[ib][ia] = !x;
            const z3::expr tie = first_at_same_instant(a, b);
            for (std::int64_t t = std::min(p_.issue[a.k], p_.issue[b.k]); t <= p_.horizon; ++t) {
                check_build(o_.budget);
                constraints_.push_back(z3::implies(started_at(b, t) && started(a, t - 1), x));
                constraints_.push_back(z3::implies(started_at(a, t) && started(b, t - 1), !x));
                constraints_.push_back(z3::implies(started_at(a, t) && started_at(b, t), x == tie));
            }
        }
}

void TimeIndexedEncoding::rule_round_robin_placement() {
    rule_dispatch_sequence();
    const int sms = p_.sms;
    const std::size_t n = blocks_.size();
    for (std::size_t ib = 0; ib < n; ++ib) {
        const Block& b = blocks_[ib];
        // previous_on[m]: the block dispatched just before b went to SM m. Only "implied by
        // the real predecessor" is needed: it is used as a premise below.
        std::vector<z3::expr> previous_on;
        for (int m = 0; m < sms; ++m)
            previous_on.push_back(ctx_.bool_const(
                ("rrprev_" + std::to_string(b.k) + "_" + std::to_string(b.j) + "_" + std::to_string(m)).c_str()));
        z3::expr_vector none_before(ctx_);
        for (std::size_t ia = 0; ia < n; ++ia) {
            if (ia == ib) continue;
            const Block& a = blocks_[ia];
            if (a.k == b.k && a.j != b.j - 1) continue;  // a later block, or one with b.j - 1 in between
            none_before.push_back(!dispatched_before_[ia][ib]);
            check_build(o_.budget);
            z3::expr_vector between(ctx_);
            for (std::size_t ic = 0; ic < n; ++ic)
                if (ic != ia && ic != ib) between.push_back(dispatched_before_[ia][ic] && dispatched_before_[ic][ib]);
            const z3::expr just_before = dispatched_before_[ia][ib] && !z3::mk_or(between);
            for (int m = 0; m < sms; ++m)
                constraints_.push_back(z3::implies(just_before && on_[a.k][a.j][m], previous_on[m]));
        }
        // The simulator starts with "SM used last" = -1: the very first block looks from SM 0.
        const z3::expr first = b.j > 0 ? ctx_.bool_val(false) : z3::mk_and(none_before);
        for (std::int64_t t = p_.issue[b.k]; t <= p_.horizon; ++t) {
            std::vector<z3::expr> fit;
            for (int c = 0; c < sms; ++c) fit.push_back(fits(b, c, t, 1));
            const z3::expr now = started_at(b, t);
            for (int prev = -1; prev < sms; ++prev) {
                const z3::expr after = prev < 0 ? first : previous_on[prev];
                for (int m = 0; m < sms; ++m)
                    for (int step = 1; step < sms; ++step) {  // every SM cyclically between prev and m is full
                        const int cand = ((prev + step) % sms + sms) % sms;
                        if (cand == m) break;
                        constraints_.push_back(z3::implies(now && after && on_[b.k][b.j][m], !fit[cand]));
                    }
            }
        }
    }
}

}  // namespace gpuwcrt
