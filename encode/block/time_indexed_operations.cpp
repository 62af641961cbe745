// The operation-level families of the time-indexed encoding: issue instants (including
// after_stream_idle), the launch order, joins under N1/N2, priorities (A1/A2) and copies
// (C1-C4). They mirror sim/rules.cpp rule by rule; docs/theory/encoding.md, "Operations", gives the
// proof. Used only when BlockProblem::extended(); otherwise the kernel-only families of
// time_indexed_encoding.cpp stand alone, as before.
#include "encode/block/time_indexed_encoding.hpp"

namespace gpuwcrt {
namespace {

std::string id(const char* what, int o, std::int64_t t) {
    return std::string(what) + "_" + std::to_string(o) + "_" + std::to_string(t);
}

}  // namespace

// Every operation is issued, joined and (copies) started by the horizon: it is done by then
// (BlockProblem's horizon for extended workloads bounds every completion).
z3::expr TimeIndexedEncoding::issued(int o, std::int64_t t) const {
    if (t < p_.issue_lb[o]) return ctx_.bool_val(false);
    if (p_.issue_fixed[o] || t > p_.horizon) return ctx_.bool_val(true);
    return issued_[o][t - p_.issue_lb[o]];
}

z3::expr TimeIndexedEncoding::op_joined(int o, std::int64_t t) const {
    if (t < p_.issue_lb[o]) return ctx_.bool_val(false);
    if (t > p_.horizon) return ctx_.bool_val(true);
    return joined_[o][t - p_.issue_lb[o]];
}

z3::expr TimeIndexedEncoding::copy_started(int o, std::int64_t t) const {
    if (t < p_.issue_lb[o]) return ctx_.bool_val(false);
    if (t >= p_.horizon) return ctx_.bool_val(true);
    return copy_started_[o][t - p_.issue_lb[o]];
}

z3::expr TimeIndexedEncoding::copy_running(int o, std::int64_t t) const {
    return copy_started(o, t) && !ended(o, 0, t);  // ends at start + d, released then (C4)
}

z3::expr TimeIndexedEncoding::op_finished(int o, std::int64_t t) const {
    const int k = p_.kernel_of_op[o];
    if (k < 0) return ended(o, 0, t);
    // Blocks start in order: with one block time for all, the last one started ends last.
    if (!p_.duration_varies(o)) return started(last(k), t - p_.block_time[k]);
    z3::expr all = ctx_.bool_val(true);  // with chosen durations any block may end last
    for (std::int64_t j = 0; j < p_.blocks[k]; ++j) all = all && ended(o, j, t);
    return all;
}

z3::expr TimeIndexedEncoding::high_queue_done(std::int64_t t) const {
    z3::expr all = ctx_.bool_val(true);
    for (int h = 0; h < p_.kernels(); ++h)
        if (p_.high[h]) all = all && z3::implies(op_joined(p_.op[h], t), started(last(h), t));
    return all;
}

void TimeIndexedEncoding::declare_operation_variables() {
    const int n = p_.ops();
    launch_.assign(n, std::vector<z3::expr>(n, ctx_.bool_val(false)));
    ce_before_.assign(n, std::vector<z3::expr>(n, ctx_.bool_val(false)));
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b) {
            z3::expr x = ctx_.bool_const(("launch_" + std::to_string(a) + "_" + std::to_string(b)).c_str());
            launch_[a][b] = x;
            launch_[b][a] = !x;
            if (p_.kernel_of_op[a] < 0 && p_.kernel_of_op[b] < 0) {
                z3::expr q = ctx_.bool_const(("ce_" + std::to_string(a) + "_" + std::to_string(b)).c_str());
                ce_before_[a][b] = q;
                ce_before_[b][a] = !q;
            }
        }
    issued_.resize(n);
    joined_.resize(n);
    copy_started_.resize(n);
    for (int o = 0; o < n; ++o) {
        check_build(o_.budget);
        for (std::int64_t t = p_.issue_lb[o]; t <= p_.horizon; ++t) {
            if (!p_.issue_fixed[o]) issued_[o].push_back(ctx_.bool_const(id("issued", o, t).c_str()));
            joined_[o].push_back(ctx_.bool_const(id("joined", o, t).c_str()));
        }
        if (p_.kernel_of_op[o] < 0)
            for (std::int64_t t = p_.issue_lb[o]; t < p_.horizon; ++t) {
                copy_started_[o].push_back(ctx_.bool_const(id("copy", o, t).c_str()));
                if (copy_started_[o].size() > 1)
                    constraints_.push_back(
                        z3::implies(copy_started_[o][copy_started_[o].size() - 2], copy_started_[o].back()));
            }
    }
}

// sim/rules.cpp predecessor_issued / operation_completed: an absolute instant is "not before
// the predecessor's issue" (docs/decisions/0003-issue-after-stream-idle.md), with_previous is the predecessor's
// instant, after_stream_idle is the predecessor's completion + delay.
void TimeIndexedEncoding::rule_g1_issue_times() {
    using R = BlockProblem::IssueRule;
    for (int o = 0; o < p_.ops(); ++o) {
        if (p_.issue_fixed[o]) continue;
        const int pred = p_.op_pred[o];  // not fixed: a predecessor, or a window (at only)
        for (std::int64_t t = p_.issue_lb[o]; t <= p_.horizon; ++t) {
            check_build(o_.budget);
            z3::expr def = ctx_.bool_val(false);
            switch (p_.issue_rule[o]) {
                case R::at:  // the window's instant, or the predecessor's issue if that is later
                    def = window_chosen_by(o, t) && (pred < 0 ? ctx_.bool_val(true) : issued(pred, t));
                    break;
                case R::with_previous:
                    def = issued(pred, t);
                    break;
                case R::after_idle:
                    def = op_finished(pred, t - p_.issue_value[o]);
                    break;
            }
            constraints_.push_back(issued_[o][t - p_.issue_lb[o]] == def);
        }
    }
}

// docs/theory/semantics.md §5: the launch order is any total order that keeps stream order and puts an operation
// issued earlier first.
void TimeIndexedEncoding::rule_launch_order_follows_issues() {
    const int n = p_.ops();
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
            check_build(o_.budget);
            if (a == b) continue;
            for (int c = a + 1; c < n; ++c)
                if (c != b) constraints_.push_back(z3::implies(launch_[a][b] && launch_[b][c], launch_[a][c]));
        }
    for (int o = 0; o < n; ++o)
        if (p_.op_pred[o] >= 0) constraints_.push_back(launch_[p_.op_pred[o]][o]);
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
            if (a == b) continue;
            if (p_.issue_fixed[a] && p_.issue_fixed[b]) {
                if (p_.issue_lb[a] < p_.issue_lb[b]) constraints_.push_back(launch_[a][b]);
                continue;
            }
            for (std::int64_t t = p_.issue_lb[a]; t <= p_.horizon; ++t) {
                check_build(o_.budget);
                constraints_.push_back(z3::implies(issued(a, t) && !issued(b, t), launch_[a][b]));
            }
        }
}

// sim/rules.cpp g2_a1_c1_admit_stream_heads with n1_n2_may_join: an operation is at its
// stream's head once issued and its predecessor completed (G1, G4, C4). A copy joins the CE
// queue then (C1; copies are exempt from N1/N2, docs/decisions/0005-null-stream-heads-and-copies.md). A NULL-stream
// kernel joins once every operation of another stream launched before it has completed (N1: the other stream heads are
// all launched after it); another kernel once every NULL-stream operation launched before it has completed (N2).
void TimeIndexedEncoding::rule_g2_n1_n2_c1_joins() {
    const int n = p_.ops();
    for (int o = 0; o < n; ++o)
        for (std::int64_t t = p_.issue_lb[o]; t <= p_.horizon; ++t) {
            check_build(o_.budget);
            z3::expr def = issued(o, t);
            if (p_.op_pred[o] >= 0) def = def && op_finished(p_.op_pred[o], t);
            if (p_.kernel_of_op[o] >= 0 && p_.has_null)
                for (int x = 0; x < n; ++x)
                    if (x != o && (p_.in_null[o] ? !p_.in_null[x] : p_.in_null[x]))
                        def = def && z3::implies(launch_[x][o], op_finished(x, t));
            constraints_.push_back(joined_[o][t - p_.issue_lb[o]] == def);
        }
}

// Several operations joining one queue at the same instant join in launch order (docs/theory/semantics.md §4
// step 3): a queue's order is by join instant, ties by launch order. Also the EE order of
// kernels of different priorities, which only the symmetry-free extended families read.
void TimeIndexedEncoding::rule_g2_ee_order_by_join_then_launch() {
    const int n = p_.kernels();
    for (int k = 0; k < n; ++k)
        for (int l = 0; l < n; ++l) {
            if (k == l) continue;
            const int a = p_.op[k], b = p_.op[l];
            for (std::int64_t t = 0; t <= p_.horizon; ++t) {
                check_build(o_.budget);
                constraints_.push_back(z3::implies(op_joined(a, t) && !op_joined(b, t), before_[k][l]));
                constraints_.push_back(z3::implies(before_[k][l] && op_joined(b, t), op_joined(a, t)));
                constraints_.push_back(
                    z3::implies(before_[k][l] && launch_[b][a] && op_joined(b, t), op_joined(a, t - 1)));
            }
        }
}

void TimeIndexedEncoding::rule_c1_c3_ce_fifo() {
    const int n = p_.ops();
    for (int a = 0; a < n; ++a) {
        if (p_.kernel_of_op[a] >= 0) continue;
        for (std::int64_t t = p_.issue_lb[a]; t < p_.horizon; ++t)
            constraints_.push_back(z3::implies(copy_started(a, t), op_joined(a, t)));
        for (int b = 0; b < n; ++b) {
            if (a == b || p_.kernel_of_op[b] >= 0) continue;
            for (std::int64_t t = 0; t <= p_.horizon; ++t) {
                check_build(o_.budget);
                constraints_.push_back(z3::implies(op_joined(a, t) && !op_joined(b, t), ce_before_[a][b]));
                constraints_.push_back(z3::implies(ce_before_[a][b] && op_joined(b, t), op_joined(a, t)));
                constraints_.push_back(
                    z3::implies(ce_before_[a][b] && launch_[b][a] && op_joined(b, t), op_joined(a, t - 1)));
                constraints_.push_back(z3::implies(ce_before_[a][b] && copy_started(b, t), copy_started(a, t)));
            }
        }
    }
}

// sim/rules.cpp c2_c3_start_copies: while an engine is idle the CE head starts. Counting every
// running copy is exact: a copy waiting at t has only copies ahead of it in the CE queue
// running (FIFO, rule_c1_c3_ce_fifo).
void TimeIndexedEncoding::rule_c2_copy_engines() {
    const int n = p_.ops();
    std::vector<int> copies;
    for (int o = 0; o < n; ++o)
        if (p_.kernel_of_op[o] < 0) copies.push_back(o);
    const int engines = p_.copy_engines;
    for (std::int64_t t = 0; t <= p_.horizon; ++t) {
        check_build(o_.budget);
        z3::expr_vector running(ctx_);
        for (int c : copies) running.push_back(copy_running(c, t));
        std::vector<int> ones(copies.size(), 1);
        const bool can_fill = static_cast<int>(copies.size()) >= engines;
        if (static_cast<int>(copies.size()) > engines) constraints_.push_back(z3::pble(running, ones.data(), engines));
        const z3::expr all_busy = can_fill ? z3::pbge(running, ones.data(), engines) : ctx_.bool_val(false);
        for (int c : copies) {
            if (t >= p_.horizon) continue;
            z3::expr waiting = op_joined(c, t) && !copy_started(c, t);
            for (int a : copies)
                if (a != c) waiting = waiting && z3::implies(ce_before_[a][c], copy_started(a, t));
            constraints_.push_back(z3::implies(waiting, all_busy));
        }
    }
}

// sim/rules.cpp x1_a2_g3_dispatch_blocks: the head of the highest-priority non-empty EE queue
// dispatches; a low-priority block starts at t only if every high-priority kernel that has
// joined by t is fully dispatched by t (a high kernel joining at t goes first: joins precede
// dispatch within an instant).
void TimeIndexedEncoding::rule_a2_priority_dispatch() {
    if (!p_.has_priorities) return;
    for (const Block& b : blocks_) {
        if (p_.high[b.k]) continue;
        for (std::int64_t t = p_.issue[b.k]; t < p_.horizon; ++t) {
            check_build(o_.budget);
            constraints_.push_back(z3::implies(started_at(b, t), high_queue_done(t)));
        }
    }
}

z3::expr TimeIndexedEncoding::op_response_exceeds(int o, std::int64_t bound) const {
    const int k = p_.kernel_of_op[o];
    if (!p_.extended()) return response_exceeds(k, bound);
    if (p_.issue_fixed[o]) return !op_finished(o, p_.issue_lb[o] + bound);
    z3::expr_vector any(ctx_);
    for (std::int64_t t = p_.issue_lb[o]; t <= p_.horizon; ++t)
        any.push_back(issued(o, t) && !issued(o, t - 1) && !op_finished(o, t + bound));
    return z3::mk_or(any);
}

std::int64_t TimeIndexedEncoding::op_issue_in(const z3::model& model, int o) const {
    if (!p_.extended()) return p_.issue[p_.kernel_of_op[o]];
    for (std::int64_t t = p_.issue_lb[o]; t <= p_.horizon; ++t)
        if (model.eval(issued(o, t), true).is_true()) return t;
    return p_.horizon;
}

std::int64_t TimeIndexedEncoding::op_finish_in(const z3::model& model, int o) const {
    const int k = p_.kernel_of_op[o];
    if (!p_.extended()) return start_in(model, k, p_.blocks[k] - 1) + p_.block_time[k];
    if (k >= 0) {
        std::int64_t end = 0;
        for (std::int64_t j = 0; j < p_.blocks[k]; ++j)
            end = std::max(end, start_in(model, k, j) + duration_in(model, o, j));
        return end;
    }
    for (std::int64_t t = p_.issue_lb[o]; t < p_.horizon; ++t)
        if (model.eval(copy_started(o, t), true).is_true()) return t + duration_in(model, o, 0);
    return p_.horizon + duration_in(model, o, 0);
}

}  // namespace gpuwcrt
