#include "encode/rta/rta_encoding.hpp"

#include "model/checked_int.hpp"

#include <algorithm>
#include <string>

namespace gpuwcrt {
namespace {

z3::expr max_of(const z3::expr& a, const z3::expr& b) { return z3::ite(a >= b, a, b); }

// Σ_j at[j] ? value[j] : 0, the value of the kernel at one position.
z3::expr selected(z3::context& ctx, const std::vector<z3::expr>& at, const std::vector<std::int64_t>& value) {
    z3::expr sum = ctx.int_val(0);
    for (std::size_t j = 0; j < at.size(); ++j) sum = sum + z3::ite(at[j], ctx.int_val(value[j]), ctx.int_val(0));
    return sum;
}

std::string var_name(const char* what, int a, int b = -1) {
    std::string s = what;  // appended step by step: GCC 12 warns falsely (-Wrestrict) on a + chain
    s += '_';
    s += std::to_string(a);
    if (b >= 0) {
        s += '_';
        s += std::to_string(b);
    }
    return s;
}

// The slots of the one big SM that can ever be busy at once: Σ slots, at most g_max.
int slot_machines(const RtaOrderProblem& p) {
    std::int64_t total_slots = 0;
    for (auto g : p.slots) total_slots = std::min<std::int64_t>(total_slots + g, p.g_max);
    return static_cast<int>(std::min<std::int64_t>(p.g_max, total_slots));
}

std::int64_t most_slots(const RtaOrderProblem& p) {
    std::int64_t most = 0;
    for (auto g_j : p.slots) most = std::max(most, g_j);
    return most;
}

void check_size(const RtaOrderProblem& p, int machines, long long max_terms) {
    const int n = p.kernels();
    const std::int64_t most = most_slots(p);
    // Term count n·most·machines + n², in checked integers (an overflow is "too large" as well).
    const auto per_kernel = product_within(most, std::max(machines, 1), max_terms);
    const auto slots_terms = per_kernel ? product_within(n, *per_kernel, max_terms) : std::nullopt;
    const auto order_terms = product_within(n, n, max_terms);
    if (!slots_terms || !order_terms || *slots_terms > max_terms - *order_terms)
        throw RtaEncodingTooLarge(std::to_string(n) + " kernels on " + std::to_string(machines) +
                                  " slots exceed the RTA encoding's size limit");
}

// at[q][j]: a permutation matrix, and each kernel's position in the order.
void encode_permutation(z3::context& ctx, z3::solver& s, int n, RtaEncoding& e) {
    for (int q = 0; q < n; ++q) {
        e.at.emplace_back();
        for (int j = 0; j < n; ++j) e.at[q].push_back(ctx.bool_const(var_name("at", q, j).c_str()));
    }
    for (int q = 0; q < n; ++q) {
        z3::expr row = ctx.int_val(0), col = ctx.int_val(0);
        for (int j = 0; j < n; ++j) {
            row = row + z3::ite(e.at[q][j], ctx.int_val(1), ctx.int_val(0));
            col = col + z3::ite(e.at[j][q], ctx.int_val(1), ctx.int_val(0));
        }
        s.add(row == 1);  // one kernel per position
        s.add(col == 1);  // kernel q at one position
    }
    for (int j = 0; j < n; ++j) {
        z3::expr at_pos = ctx.int_val(0);
        for (int q = 0; q < n; ++q) at_pos = at_pos + z3::ite(e.at[q][j], ctx.int_val(q), ctx.int_val(0));
        e.position.push_back(at_pos);
    }
}

void encode_releases_and_streams(z3::solver& s, const RtaOrderProblem& p, const Budget& budget,
                                 const std::vector<z3::expr>& pos) {
    const int n = p.kernels();
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
            budget.check();
            // Only the immediate successor in the stream: the rest follows by transitivity.
            bool next_in_stream = p.stream_before(a, b);
            for (int m = 0; m < n && next_in_stream; ++m)
                if (p.stream_before(a, m) && p.stream_before(m, b)) next_in_stream = false;
            if (p.release[a] < p.release[b] || next_in_stream) s.add(pos[a] < pos[b]);
        }
}

// The kernel at position q's block time and last block's start (scaled), per position.
struct PositionTimes {
    std::vector<z3::expr> c, t;
};

// One kernel's slot steps on the sorted free instants x; returns its last block's start.
z3::expr encode_kernel_steps(z3::context& ctx, z3::solver& s, const RtaOrderProblem& p, const Budget& budget, int q,
                             const z3::expr& gq, const z3::expr& cq, const z3::expr& from, std::vector<z3::expr>& x) {
    const int machines = static_cast<int>(x.size());
    const std::int64_t most = most_slots(p);
    z3::expr t = from;
    for (std::int64_t step = 0; step < most; ++step) {
        budget.check();
        const z3::expr active = ctx.int_val(step) < gq;
        const z3::expr v = x[0] + cq;  // the block starts at x[0], the earliest free instant
        std::vector<z3::expr> next;
        for (int m = 0; m < machines; ++m) {
            // Sorted insertion of v into x[1..]: element m of the result.
            const z3::expr above = m + 1 < machines ? x[m + 1] : v;
            const z3::expr below = m >= 1 ? max_of(x[m], v) : v;
            const z3::expr value = m + 1 < machines ? z3::ite(above <= below, above, below) : max_of(x[m], v);
            const z3::expr var = ctx.int_const(var_name("x", q, static_cast<int>(step) * machines + m).c_str());
            s.add(var == z3::ite(active, value, x[m]));
            s.add(var >= 0 && var <= ctx.int_val(p.horizon));  // bounded: QF_FD bit-blasts it
            next.push_back(var);
        }
        t = z3::ite(active, x[0], t);
        x = next;
    }
    return t;
}

void encode_slot_steps(z3::context& ctx, z3::solver& s, const RtaOrderProblem& p, const Budget& budget, int machines,
                       const RtaEncoding& e, PositionTimes& out) {
    // The free instants of the slots as a sorted vector (ascending): slots are
    // interchangeable, so the sorted vector is the whole state, and one slot step is
    // "the earliest slot takes the block: remove it, insert its start + C".
    std::vector<z3::expr> x;
    for (int m = 0; m < machines; ++m) x.push_back(ctx.int_val(0));
    z3::expr t_prev = ctx.int_val(0);
    for (int q = 0; q < p.kernels(); ++q) {
        const z3::expr rq = selected(ctx, e.at[q], p.release), gq = selected(ctx, e.at[q], p.slots),
                       cq = selected(ctx, e.at[q], p.c);
        // FIFO and the release extension: nothing of this kernel starts before
        // T = max(t_a, r); slots free earlier count as free at T (Algorithm 2's g_f).
        const z3::expr from = max_of(t_prev, rq);
        for (auto& v : x) v = max_of(v, from);
        const z3::expr t = encode_kernel_steps(ctx, s, p, budget, q, gq, cq, from, x);
        const z3::expr tq = ctx.int_const(var_name("t", q).c_str());
        s.add(tq == t);
        s.add(tq >= 0 && tq <= ctx.int_val(p.horizon));
        out.c.push_back(cq);
        t_prev = tq;
        out.t.push_back(tq);
    }
}

void encode_finish(z3::context& ctx, int n, const PositionTimes& times, RtaEncoding& e) {
    for (int j = 0; j < n; ++j) {
        z3::expr f = ctx.int_val(0);
        for (int q = 0; q < n; ++q) f = f + z3::ite(e.at[q][j], times.t[q] + times.c[q], ctx.int_val(0));
        e.finish.push_back(f);
    }
}

}  // namespace

RtaEncoding encode_rta_orders(z3::context& ctx, z3::solver& s, const RtaOrderProblem& p, const Budget& budget,
                              long long max_terms) {
    RtaEncoding e;
    const int n = p.kernels();
    const int machines = slot_machines(p);
    check_size(p, machines, max_terms);
    PositionTimes times;
    e.interrupted = !build_families(
        nullptr,
        {
            {"launch order: a permutation of the kernels", [&] { encode_permutation(ctx, s, n, e); }},
            {"launch order: releases and streams", [&] { encode_releases_and_streams(s, p, budget, e.position); }},
            {"Algorithm 2: one list-scheduling step per slot",
             [&] { encode_slot_steps(ctx, s, p, budget, machines, e, times); }},
            {"finish instants", [&] { encode_finish(ctx, n, times, e); }},
        });
    return e;
}

}  // namespace gpuwcrt
