#include "encode/block/order_and_placement.hpp"

#include <string>

namespace gpuwcrt {

OrderAndPlacement declare_order_and_placement(z3::context& ctx, const BlockProblem& p, z3::expr_vector& constraints,
                                              const Budget& budget) {
    const int n = p.kernels();
    OrderAndPlacement v;
    v.before.assign(n, std::vector<z3::expr>(n, ctx.bool_val(false)));
    for (int k = 0; k < n; ++k)
        for (int l = k + 1; l < n; ++l) {
            check_build(budget);
            z3::expr b = ctx.bool_const(("before_" + std::to_string(k) + "_" + std::to_string(l)).c_str());
            v.before[k][l] = b;
            v.before[l][k] = !b;
        }
    for (int k = 0; k < n; ++k) {
        v.on.emplace_back();
        for (std::int64_t j = 0; j < p.blocks[k]; ++j) {
            check_build(budget);
            const std::string id = std::to_string(k) + "_" + std::to_string(j);
            std::vector<z3::expr> on;
            if (p.sms == 2) {  // one literal: SM 1 or not
                z3::expr x = ctx.bool_const(("sm1_" + id).c_str());
                on = {!x, x};
            } else {
                z3::expr_vector choice(ctx);
                for (int m = 0; m < p.sms; ++m) {
                    on.push_back(ctx.bool_const(("on_" + id + "_" + std::to_string(m)).c_str()));
                    choice.push_back(on.back());
                }
                std::vector<int> ones(p.sms, 1);
                constraints.push_back(z3::pbeq(choice, ones.data(), 1));
            }
            v.on[k].push_back(on);
        }
    }
    return v;
}

void launch_order_is_total(const OrderAndPlacement& v, z3::expr_vector& constraints, const Budget& budget) {
    const int n = static_cast<int>(v.before.size());
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
            check_build(budget);
            for (int c = a + 1; c < n; ++c)
                if (a != b && b != c)
                    constraints.push_back(z3::implies(v.before[a][b] && v.before[b][c], v.before[a][c]));
        }
}

void break_symmetries(const BlockProblem& p, const OrderAndPlacement& v, std::optional<int> keep_free, z3::context& ctx,
                      z3::expr_vector& constraints, const Budget& budget) {
    for (auto [a, b] : interchangeable_kernels(p, keep_free)) constraints.push_back(v.before[a][b]);
    const int n = p.kernels();
    // Dominance: kernels that enter the EE queue after the objective kernel t are dispatched
    // after all of t's blocks (FIFO), so their order cannot change t's response. Among such
    // kernels alone in their streams, keep only the order by (issue, index), which is always
    // a legal EE order for them (their joins are their issues).
    if (keep_free) {
        const int t = *keep_free;
        std::vector<char> alone(n, 1);
        for (int k = 0; k < n; ++k)
            if (p.stream_pred[k] >= 0) alone[k] = alone[p.stream_pred[k]] = 0;
        for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b) {
                check_build(budget);
                if (a == b || a == t || b == t || !alone[a] || !alone[b]) continue;
                if (p.issue[a] > p.issue[b] || (p.issue[a] == p.issue[b] && a > b)) continue;
                constraints.push_back(z3::implies(v.before[t][a] && v.before[t][b], v.before[a][b]));
            }
    }
    for (int k = 0; k < n; ++k) {
        check_build(budget);
        z3::expr first = ctx.bool_val(true);
        for (int l = 0; l < n; ++l)
            if (l != k) first = first && v.before[k][l];
        constraints.push_back(z3::implies(first, v.on[k][0][0]));
    }
}

}  // namespace gpuwcrt
