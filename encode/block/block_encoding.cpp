#include "encode/block/block_encoding.hpp"

#include "encode/block/order_and_placement.hpp"

#include <climits>
#include <stdexcept>

namespace gpuwcrt {

BlockEncoding::BlockEncoding(z3::context& ctx, const BlockProblem& p, const BlockEncodingOptions& o)
    : ctx_(ctx), p_(p), o_(o), constraints_(ctx) {
    for (const auto& r : p.all_resources)
        for (std::int64_t d : r.demand)
            if (d > INT_MAX / 2 || r.capacity > INT_MAX / 2)
                throw std::logic_error("resource demand too large for a pseudo-Boolean coefficient");
    interrupted_ = !build_families(
        o_.progress,
        {
            {"variables", [&] { declare_variables(); }},
            {"launch order", [&] { rule_launch_order_is_total(); }},
            {"join times",
             [&] {
                 rule_g1_g2_g4_join_times();
                 rule_g2_ee_order_follows_joins();
             }},
            {"FIFO dispatch", [&] { rule_x1_g3_fifo_dispatch(); }},
            {"resources", [&] { rule_r_resources_fit(); }},
            {"greedy dispatch", [&] { rule_greedy_dispatch(); }},
            {"placement policy", [&] { rule_placement_policy(); }},
            {"symmetry breaking",
             [&] {
                 if (o_.symmetry_breaking)
                     break_symmetries(p_, {before_, on_}, o_.objective_kernel, ctx_, constraints_, o_.budget);
             }},
        });  // interrupted: what was built stays, see interrupted()
}

void BlockEncoding::declare_variables() {
    OrderAndPlacement v = declare_order_and_placement(ctx_, p_, constraints_, o_.budget);
    before_ = std::move(v.before);
    on_ = std::move(v.on);
    for (int k = 0; k < p_.kernels(); ++k) {
        check_build(o_.budget);
        join_.push_back(ctx_.int_const(("join_" + std::to_string(k)).c_str()));
        start_.emplace_back();
        for (std::int64_t j = 0; j < p_.blocks[k]; ++j) {
            start_[k].push_back(ctx_.int_const(("start_" + std::to_string(k) + "_" + std::to_string(j)).c_str()));
            blocks_.push_back({k, j});
        }
    }
}

std::int64_t BlockEncoding::start_in(const z3::model& model, int k, std::int64_t j) const {
    // Read as a decimal string, never through a machine integer conversion of Z3's numeral;
    // the range check is then exact (starts are scaled integers in [issue, horizon]).
    const BigInt v(model.eval(start_[k][j], true).get_decimal_string(0));
    if (v < 0 || v > BigInt(p_.horizon)) throw std::logic_error("model start outside [0, horizon]");
    return static_cast<std::int64_t>(v);
}

z3::expr BlockEncoding::before(int k, int l) const { return before_[k][l]; }

z3::expr BlockEncoding::end(int k, std::int64_t j) const { return start_[k][j] + num(p_.block_time[k]); }

z3::expr BlockEncoding::earlier(const Block& a, const Block& b) const {
    if (a.k == b.k) return ctx_.bool_val(a.j < b.j);
    return before_[a.k][b.k];
}

z3::expr BlockEncoding::usage_within(const Block& b, int m, std::size_t r, bool running_at_start,
                                     std::int64_t bound) const {
    check_build(o_.budget);  // every family's inner loops come through here or through fits()
    const auto& res = r < p_.resources.size() ? p_.resources[r] : p_.all_resources[r - p_.resources.size()];
    if (bound < 0) return ctx_.bool_val(false);
    z3::expr_vector terms(ctx_);
    std::vector<int> coeffs;
    std::int64_t total = 0;
    for (const Block& a : blocks_) {
        if ((a.k == b.k && a.j >= b.j) || res.demand[a.k] == 0) continue;
        z3::expr running = running_at_start ? end(a.k, a.j) > start(b.k, b.j) : end(a.k, a.j) >= start(b.k, b.j);
        terms.push_back(earlier(a, b) && on_[a.k][a.j][m] && running);
        coeffs.push_back(static_cast<int>(res.demand[a.k]));
        total += res.demand[a.k];
    }
    if (total <= bound) return ctx_.bool_val(true);
    return z3::pble(terms, coeffs.data(), static_cast<int>(bound));
}

z3::expr BlockEncoding::fits(const Block& b, int m, std::int64_t copies) const {
    z3::expr all = ctx_.bool_val(true);
    for (std::size_t r = 0; r < p_.resources.size(); ++r)
        all = all && usage_within(b, m, r, true, p_.resources[r].capacity - copies * p_.resources[r].demand[b.k]);
    return all;
}

z3::expr BlockEncoding::fits_just_before(const Block& b, int m) const {
    z3::expr all = ctx_.bool_val(true);
    for (std::size_t r = 0; r < p_.resources.size(); ++r)
        all = all && usage_within(b, m, r, false, p_.resources[r].capacity - p_.resources[r].demand[b.k]);
    return all;
}

void BlockEncoding::rule_launch_order_is_total() { launch_order_is_total({before_, on_}, constraints_, o_.budget); }

void BlockEncoding::rule_g1_g2_g4_join_times() {
    for (int k = 0; k < p_.kernels(); ++k) {
        check_build(o_.budget);
        const z3::expr issue = num(p_.issue[k]);
        const int pred = p_.stream_pred[k];
        if (pred < 0) {
            constraints_.push_back(join_[k] == issue);
            continue;
        }
        const z3::expr done = finish(pred);
        constraints_.push_back(join_[k] >= issue && join_[k] >= done);
        constraints_.push_back(join_[k] == issue || join_[k] == done);
        constraints_.push_back(before_[pred][k]);
    }
}

void BlockEncoding::rule_g2_ee_order_follows_joins() {
    const int n = p_.kernels();
    for (int k = 0; k < n; ++k)
        for (int l = 0; l < n; ++l) {
            check_build(o_.budget);
            if (k == l) continue;
            // Same-instant joins go in launch order, and a launch order puts earlier issues first.
            if (p_.issue[k] <= p_.issue[l]) constraints_.push_back(z3::implies(before_[k][l], join_[k] <= join_[l]));
            else constraints_.push_back(z3::implies(before_[k][l], join_[k] < join_[l]));
            constraints_.push_back(z3::implies(join_[k] < join_[l], before_[k][l]));
        }
}

void BlockEncoding::rule_x1_g3_fifo_dispatch() {
    const int n = p_.kernels();
    for (int k = 0; k < n; ++k) {
        check_build(o_.budget);
        constraints_.push_back(start_[k][0] >= join_[k]);
        constraints_.push_back(join_[k] >= 0 && join_[k] <= num(p_.horizon));
        // Constant bounds on every integer: the bit-blasting QF_FD solver needs them.
        for (std::int64_t j = 0; j < p_.blocks[k]; ++j)
            constraints_.push_back(start_[k][j] >= num(p_.issue[k]) && start_[k][j] <= num(p_.horizon));
        for (std::int64_t j = 1; j < p_.blocks[k]; ++j) constraints_.push_back(start_[k][j] >= start_[k][j - 1]);
        for (int l = 0; l < n; ++l)
            if (l != k) constraints_.push_back(z3::implies(before_[l][k], start_[k][0] >= start_[l][p_.blocks[l] - 1]));
    }
}

void BlockEncoding::rule_r_resources_fit() {
    for (const Block& b : blocks_)
        for (int m = 0; m < p_.sms; ++m) constraints_.push_back(z3::implies(on_[b.k][b.j][m], fits(b, m, 1)));
}

void BlockEncoding::rule_greedy_dispatch() {
    for (const Block& b : blocks_) {
        check_build(o_.budget);
        z3::expr eligible_now = ctx_.bool_val(false);
        if (b.j > 0) {
            eligible_now = start_[b.k][b.j] == start_[b.k][b.j - 1];
        } else {
            eligible_now = start_[b.k][0] == join_[b.k];
            for (int l = 0; l < p_.kernels(); ++l)
                if (l != b.k)
                    eligible_now = eligible_now || (before_[l][b.k] && start_[b.k][0] == start_[l][p_.blocks[l] - 1]);
        }
        z3::expr blocked = ctx_.bool_val(true);
        for (int m = 0; m < p_.sms; ++m) blocked = blocked && !fits_just_before(b, m);
        constraints_.push_back(eligible_now || blocked);
    }
}

void BlockEncoding::rule_placement_policy() {
    if (o_.policy == Policy::chooser || p_.sms == 1) return;
    for (const Block& b : blocks_) {
        for (int m = 0; m < p_.sms; ++m) {
            const z3::expr here = on_[b.k][b.j][m];
            if (o_.policy == Policy::first_fit) {
                for (int e = 0; e < m; ++e) constraints_.push_back(z3::implies(here, !fits(b, e, 1)));
            } else if (o_.policy == Policy::most_room) {
                // room(m) >= q  <=>  q more blocks of this kernel fit on m, over every per-SM limit.
                std::int64_t qmax = LLONG_MAX;
                for (const auto& r : p_.all_resources)
                    if (r.demand[b.k] > 0) qmax = std::min(qmax, r.capacity / r.demand[b.k]);
                auto room_ge = [&](int sm, std::int64_t q) {
                    z3::expr all = ctx_.bool_val(true);
                    for (std::size_t r = 0; r < p_.all_resources.size(); ++r)
                        all = all && usage_within(b, sm, p_.resources.size() + r, true,
                                                  p_.all_resources[r].capacity - q * p_.all_resources[r].demand[b.k]);
                    return all;
                };
                for (int other = 0; other < p_.sms; ++other) {
                    if (other == m) continue;
                    if (other > m) {  // ties go to the lower index: m has at least the room of `other`
                        for (std::int64_t q = 1; q <= qmax; ++q)
                            constraints_.push_back(z3::implies(here && room_ge(other, q), room_ge(m, q)));
                    } else {  // a lower index with equal room would have won: m has strictly more
                        z3::expr more = ctx_.bool_val(false);
                        for (std::int64_t q = 1; q <= qmax; ++q) more = more || (room_ge(m, q) && !room_ge(other, q));
                        constraints_.push_back(z3::implies(here, more));
                    }
                }
            }
        }
        if (o_.policy == Policy::round_robin) rule_round_robin_block(b);
    }
}

void BlockEncoding::rule_round_robin_block(const Block& b) {
    // The SM used for the previous block in the FIFO sequence decides where the search starts.
    const int M = p_.sms;
    auto chosen_after = [&](int prev) {  // the constraint when the previous block went to `prev` (-1: none)
        z3::expr all = ctx_.bool_val(true);
        for (int m = 0; m < M; ++m) {
            z3::expr none_earlier = ctx_.bool_val(true);
            for (int step = 1; step < M; ++step) {
                const int cand = ((prev + step) % M + M) % M;
                if (cand == m) break;
                none_earlier = none_earlier && !fits(b, cand, 1);
            }
            all = all && z3::implies(on_[b.k][b.j][m], none_earlier);
        }
        return all;
    };
    if (b.j > 0) {
        for (int prev = 0; prev < M; ++prev)
            constraints_.push_back(z3::implies(on_[b.k][b.j - 1][prev], chosen_after(prev)));
        return;
    }
    const int n = p_.kernels();
    z3::expr first = ctx_.bool_val(true);
    for (int l = 0; l < n; ++l)
        if (l != b.k) first = first && !before_[l][b.k];
    constraints_.push_back(z3::implies(first, chosen_after(-1)));
    for (int l = 0; l < n; ++l) {
        if (l == b.k) continue;
        check_build(o_.budget);
        z3::expr immediately = before_[l][b.k];
        for (int x = 0; x < n; ++x)
            if (x != l && x != b.k) immediately = immediately && !(before_[l][x] && before_[x][b.k]);
        for (int prev = 0; prev < M; ++prev)
            constraints_.push_back(z3::implies(immediately && on_[l][p_.blocks[l] - 1][prev], chosen_after(prev)));
    }
}

}  // namespace gpuwcrt
