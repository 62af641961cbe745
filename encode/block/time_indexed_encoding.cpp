#include "encode/block/time_indexed_encoding.hpp"

#include <climits>
#include <limits>

#include "encode/block/order_and_placement.hpp"

namespace gpuwcrt {

TimeIndexedEncoding::TimeIndexedEncoding(z3::context& ctx, const BlockProblem& p, const BlockEncodingOptions& o)
    : ctx_(ctx), p_(p), o_(o), constraints_(ctx) {
    const bool ops = p.extended();
    interrupted_ = !build_families(
        o_.progress,
        {
            {"variables",
             [&] {
                 if (ops) declare_range_variables();  // before the running-block literals, which read them
                 declare_variables();
                 if (ops) declare_operation_variables();
             }},
            {"launch order",
             [&] {
                 rule_launch_order_is_total();
                 if (ops) rule_launch_order_follows_issues();
             }},
            {"issue and join times",
             [&] {
                 if (!ops) return rule_g2_join_and_ee_order();
                 rule_durations_in_intervals();
                 rule_g1_issue_times();
                 rule_g2_n1_n2_c1_joins();
                 rule_g2_ee_order_by_join_then_launch();
             }},
            {"copies",
             [&] {
                 if (ops) rule_c1_c3_ce_fifo(), rule_c2_copy_engines();
             }},
            {"FIFO dispatch",
             [&] {
                 rule_x1_g3_fifo_dispatch();
                 rule_a2_priority_dispatch();
             }},
            {"resources", [&] { rule_r_resources_fit(); }},
            {"greedy dispatch", [&] { rule_greedy_dispatch(); }},
            {"placement policy", [&] { rule_placement_policy(); }},
            {"symmetry breaking",
             [&] {
                 // The arguments of docs/theory/encoding.md ("Symmetry breaking") assume one FIFO EE queue
                 // and a launch order that only breaks ties: not with the extended families.
                 if (o_.symmetry_breaking && !ops)
                     break_symmetries(p_, {before_, on_}, o_.objective_kernel, ctx_, constraints_, o_.budget);
             }},
        });  // interrupted: what was built stays, see interrupted()
}

std::int64_t TimeIndexedEncoding::estimated_terms(const BlockProblem& p) {
    // Saturating: a huge workload must compare as huge, not wrap around to a small size.
    constexpr std::int64_t most = std::numeric_limits<std::int64_t>::max();
    std::int64_t blocks = 0;
    for (std::int64_t g : p.blocks)
        if (__builtin_add_overflow(blocks, g, &blocks)) return most;
    std::int64_t instants = 0;
    if (__builtin_add_overflow(p.horizon, 1, &instants)) return most;
    std::int64_t terms = 1;
    for (std::int64_t f : {blocks, blocks, instants, std::int64_t{p.sms},
                           static_cast<std::int64_t>(std::max<std::size_t>(1, p.resources.size()))})
        if (__builtin_mul_overflow(terms, f, &terms)) return most;
    return terms;
}

void TimeIndexedEncoding::declare_variables() {
    OrderAndPlacement v = declare_order_and_placement(ctx_, p_, constraints_, o_.budget);
    before_ = std::move(v.before);
    on_ = std::move(v.on);
    for (int k = 0; k < p_.kernels(); ++k) {
        started_.emplace_back();
        for (std::int64_t j = 0; j < p_.blocks[k]; ++j) {
            check_build(o_.budget);
            const std::string id = std::to_string(k) + "_" + std::to_string(j);
            std::vector<z3::expr> by;
            for (std::int64_t t = p_.issue[k]; t < p_.horizon; ++t)
                by.push_back(ctx_.bool_const(("by_" + id + "_" + std::to_string(t)).c_str()));
            for (std::size_t i = 1; i < by.size(); ++i) constraints_.push_back(z3::implies(by[i - 1], by[i]));
            started_[k].push_back(by);
            blocks_.push_back({k, j});
        }
    }
    for (const Block& a : blocks_) {  // "a runs on SM m at t", the terms of every usage sum
        if (a.j == 0) running_on_.emplace_back();
        running_on_[a.k].emplace_back();
        for (int m = 0; m < p_.sms; ++m) {
            check_build(o_.budget);
            std::vector<z3::expr> row;
            for (std::int64_t t = p_.issue[a.k]; t <= p_.horizon; ++t) {
                row.push_back(ctx_.bool_const(("run_" + std::to_string(a.k) + "_" + std::to_string(a.j) + "_" +
                                               std::to_string(m) + "_" + std::to_string(t))
                                                  .c_str()));
                constraints_.push_back(row.back() == (on_[a.k][a.j][m] && running(a, t)));
            }
            running_on_[a.k].back().push_back(std::move(row));
        }
    }
}

z3::expr TimeIndexedEncoding::started(const Block& b, std::int64_t t) const {
    if (t < p_.issue[b.k]) return ctx_.bool_val(false);
    if (t >= p_.horizon) return ctx_.bool_val(true);  // every block starts by the horizon
    return started_[b.k][b.j][t - p_.issue[b.k]];
}

z3::expr TimeIndexedEncoding::started_at(const Block& b, std::int64_t t) const {
    return started(b, t) && !started(b, t - 1);
}

z3::expr TimeIndexedEncoding::running(const Block& a, std::int64_t t) const {
    return started(a, t) && !block_done(a, t);
}

z3::expr TimeIndexedEncoding::block_done(const Block& b, std::int64_t t) const {
    if (p_.extended()) return ended(p_.op[b.k], b.j, t);
    return started(b, t - p_.block_time[b.k]);
}

z3::expr TimeIndexedEncoding::joined(int k, std::int64_t t) const {
    if (p_.extended()) return op_joined(p_.op[k], t);
    if (t < p_.issue[k]) return ctx_.bool_val(false);
    const int pred = p_.stream_pred[k];
    if (pred < 0) return ctx_.bool_val(true);
    return started(last(pred), t - p_.block_time[pred]);  // the predecessor has completed (G4)
}

z3::expr TimeIndexedEncoding::earlier(const Block& a, const Block& b, std::int64_t t) const {
    if (a.k == b.k) return ctx_.bool_val(a.j < b.j);
    if (same_queue(a.k, b.k)) return before_[a.k][b.k];
    // A2 at b's start t: a high block started by t went first (a high kernel joined by t is
    // fully dispatched before any low block at t); a low block only if it started before t.
    if (p_.high[a.k]) return ctx_.bool_val(true);
    return started(a, t - 1);
}

z3::expr TimeIndexedEncoding::usage_within(const Block& b, int m, std::int64_t t, const ScaledResource& r,
                                           std::int64_t bound) const {
    check_build(o_.budget);  // the placement families' inner loops come through here
    if (bound < 0) return ctx_.bool_val(false);
    z3::expr_vector terms(ctx_);
    std::vector<int> coeffs;
    std::int64_t total = 0;
    for (const Block& a : blocks_) {
        if ((a.k == b.k && a.j >= b.j) || r.demand[a.k] == 0 || t < p_.issue[a.k]) continue;
        terms.push_back(earlier(a, b, t) && on_[a.k][a.j][m] && running(a, t));
        coeffs.push_back(static_cast<int>(r.demand[a.k]));
        total += r.demand[a.k];
    }
    if (total <= bound) return ctx_.bool_val(true);
    return z3::pble(terms, coeffs.data(), static_cast<int>(bound));
}

z3::expr TimeIndexedEncoding::fits(const Block& b, int m, std::int64_t t, std::int64_t copies) const {
    z3::expr all = ctx_.bool_val(true);
    for (const ScaledResource& r : p_.resources)
        all = all && usage_within(b, m, t, r, r.capacity - copies * r.demand[b.k]);
    return all;
}

void TimeIndexedEncoding::rule_launch_order_is_total() {
    launch_order_is_total({before_, on_}, constraints_, o_.budget);
}

void TimeIndexedEncoding::rule_x1_g3_fifo_dispatch() {
    const int n = p_.kernels();
    for (const Block& b : blocks_)
        for (std::int64_t t = p_.issue[b.k]; t < p_.horizon; ++t) {
            check_build(o_.budget);
            if (b.j > 0) {
                constraints_.push_back(z3::implies(started(b, t), started({b.k, b.j - 1}, t)));
                continue;
            }
            constraints_.push_back(z3::implies(started(b, t), joined(b.k, t)));
            for (int l = 0; l < n; ++l)
                if (l != b.k && same_queue(l, b.k))
                    constraints_.push_back(z3::implies(before_[l][b.k] && started(b, t), started(last(l), t)));
        }
}

void TimeIndexedEncoding::rule_g2_join_and_ee_order() {
    const int n = p_.kernels();
    for (int k = 0; k < n; ++k) {
        if (p_.stream_pred[k] >= 0) constraints_.push_back(before_[p_.stream_pred[k]][k]);
        for (int l = 0; l < n; ++l) {
            if (k == l) continue;
            // before(k,l) => join_k <= join_l (strictly if k was issued later); join_k < join_l => before(k,l)
            const bool strict = p_.issue[k] > p_.issue[l];
            for (std::int64_t t = 0; t <= p_.horizon; ++t) {
                check_build(o_.budget);
                constraints_.push_back(
                    z3::implies(before_[k][l] && joined(l, t), strict ? joined(k, t - 1) : joined(k, t)));
                constraints_.push_back(z3::implies(joined(k, t) && !joined(l, t), before_[k][l]));
            }
        }
    }
}

// Both families below count every block running at t on SM m, not only those dispatched
// before the block in question. That is exact because dispatch is FIFO within a priority
// (rule_x1_g3_fifo_dispatch) and, across priorities, a block eligible at t has every block
// that can overtake it already started (A2, rule_a2_priority_dispatch): a block waiting at t
// has only earlier blocks running at t, and per-SM usage only grows at starts, each of which
// is covered by the capacity bound at that instant. docs/theory/encoding.md, "Global usage".
TimeIndexedEncoding::UsageSum TimeIndexedEncoding::usage(int m, std::int64_t t, std::size_t r) const {
    check_build(o_.budget);  // the resource and greedy-dispatch families' inner loops come through here
    const ScaledResource& res = p_.resources[r];
    UsageSum u{z3::expr_vector(ctx_), {}, 0};
    for (const Block& a : blocks_) {
        if (res.demand[a.k] == 0 || t < p_.issue[a.k]) continue;
        u.terms.push_back(running_on(a, m, t));
        u.coeffs.push_back(static_cast<int>(res.demand[a.k]));
        u.total += res.demand[a.k];
    }
    return u;
}

z3::expr TimeIndexedEncoding::usage_at_least(int m, std::int64_t t, std::size_t r, std::int64_t v) {
    const auto key = std::make_tuple(m, t, r, v);
    if (auto it = usage_at_least_.find(key); it != usage_at_least_.end()) return it->second;
    UsageSum u = usage(m, t, r);
    z3::expr lit = ctx_.bool_val(false);
    if (v <= 0) lit = ctx_.bool_val(true);
    else if (u.total >= v) {
        lit = ctx_.bool_const(
            ("use_" + std::to_string(m) + "_" + std::to_string(t) + "_" + std::to_string(r) + "_" + std::to_string(v))
                .c_str());
        // One direction suffices: greedy dispatch needs "lit => usage >= v" to block a start.
        constraints_.push_back(z3::implies(lit, z3::pbge(u.terms, u.coeffs.data(), static_cast<int>(v))));
    }
    usage_at_least_.emplace(key, lit);
    return lit;
}

z3::expr TimeIndexedEncoding::running_on(const Block& a, int m, std::int64_t t) const {
    if (t < p_.issue[a.k] || t > p_.horizon) return ctx_.bool_val(false);
    return running_on_[a.k][a.j][m][t - p_.issue[a.k]];
}

void TimeIndexedEncoding::rule_r_resources_fit() {
    for (int m = 0; m < p_.sms; ++m)
        for (std::int64_t t = 0; t <= p_.horizon; ++t)  // usage grows only at starts, all by the horizon
            for (std::size_t r = 0; r < p_.resources.size(); ++r) {
                UsageSum u = usage(m, t, r);
                if (u.total > p_.resources[r].capacity)
                    constraints_.push_back(
                        z3::pble(u.terms, u.coeffs.data(), static_cast<int>(p_.resources[r].capacity)));
            }
}

void TimeIndexedEncoding::rule_greedy_dispatch() {
    const int n = p_.kernels();
    for (const Block& b : blocks_)
        for (std::int64_t t = p_.issue[b.k]; t < p_.horizon; ++t) {
            check_build(o_.budget);
            z3::expr_vector waiting(ctx_);  // eligible at t and not started by t
            waiting.push_back(!started(b, t));
            if (b.j > 0) {
                waiting.push_back(started({b.k, b.j - 1}, t));
            } else {
                waiting.push_back(joined(b.k, t));
                for (int l = 0; l < n; ++l)
                    if (l != b.k && same_queue(l, b.k))
                        waiting.push_back(z3::implies(before_[l][b.k], started(last(l), t)));
            }
            if (p_.has_priorities && !p_.high[b.k]) waiting.push_back(high_queue_done(t));  // A2
            const z3::expr is_waiting = z3::mk_and(waiting);
            for (int m = 0; m < p_.sms; ++m) {
                z3::expr_vector blocked(ctx_);  // some resource too full on SM m for b
                for (std::size_t r = 0; r < p_.resources.size(); ++r)
                    blocked.push_back(
                        usage_at_least(m, t, r, p_.resources[r].capacity - p_.resources[r].demand[b.k] + 1));
                constraints_.push_back(z3::implies(is_waiting, z3::mk_or(blocked)));
            }
        }
}

void TimeIndexedEncoding::rule_placement_policy() {
    if (o_.policy == Policy::chooser || p_.sms == 1) return;
    if (o_.policy == Policy::round_robin) return rule_round_robin_placement();
    if (o_.policy != Policy::first_fit && o_.policy != Policy::most_room)
        throw std::logic_error("the time-indexed encoding fixes no placement policy " + policy_name(o_.policy));
    for (const Block& b : blocks_)
        for (std::int64_t t = p_.issue[b.k]; t <= p_.horizon; ++t) {
            check_build(o_.budget);
            const z3::expr now = started_at(b, t);
            for (int m = 0; m < p_.sms; ++m) {
                const z3::expr here = now && on_[b.k][b.j][m];
                if (o_.policy == Policy::first_fit) {
                    for (int e = 0; e < m; ++e) constraints_.push_back(z3::implies(here, !fits(b, e, t, 1)));
                    continue;
                }
                // most-room: room(sm) >= q  <=>  q more blocks fit, over every per-SM limit
                std::int64_t qmax = LLONG_MAX;
                for (const auto& r : p_.all_resources)
                    if (r.demand[b.k] > 0) qmax = std::min(qmax, r.capacity / r.demand[b.k]);
                auto room_ge = [&](int sm, std::int64_t q) {
                    z3::expr all = ctx_.bool_val(true);
                    for (const auto& r : p_.all_resources)
                        all = all && usage_within(b, sm, t, r, r.capacity - q * r.demand[b.k]);
                    return all;
                };
                for (int other = 0; other < p_.sms; ++other) {
                    if (other == m) continue;
                    if (other > m) {
                        for (std::int64_t q = 1; q <= qmax; ++q)
                            constraints_.push_back(z3::implies(here && room_ge(other, q), room_ge(m, q)));
                    } else {
                        z3::expr more = ctx_.bool_val(false);
                        for (std::int64_t q = 1; q <= qmax; ++q) more = more || (room_ge(m, q) && !room_ge(other, q));
                        constraints_.push_back(z3::implies(here, more));
                    }
                }
            }
        }
}

z3::expr TimeIndexedEncoding::response_exceeds(int k, std::int64_t bound) const {
    // finish - issue > bound  <=>  the last block starts after issue + bound - C
    return !started(last(k), p_.issue[k] + bound - p_.block_time[k]);
}

std::int64_t TimeIndexedEncoding::start_in(const z3::model& model, int k, std::int64_t j) const {
    const Block b{k, j};
    for (std::int64_t t = p_.issue[k]; t < p_.horizon; ++t)
        if (model.eval(started(b, t), true).is_true()) return t;
    return p_.horizon;
}

}  // namespace gpuwcrt
