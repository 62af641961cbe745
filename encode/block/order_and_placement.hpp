#pragma once
// The discrete choices both block-level encodings share (docs/theory/semantics.md §5): the order in which kernels
// enter the EE queue, and the SM of every block; with the families that only involve them.
#include <vector>

#include <z3++.h>

#include "encode/block/block_problem.hpp"
#include "encode/build_families.hpp"

namespace gpuwcrt {

struct OrderAndPlacement {
    std::vector<std::vector<z3::expr>> before;           // [k][l]: k enters the EE queue before l
    std::vector<std::vector<std::vector<z3::expr>>> on;  // [k][j][m]: block j of k runs on SM m
};

// Declares the variables; adds "exactly one SM per block" to `constraints`.
OrderAndPlacement declare_order_and_placement(z3::context& ctx, const BlockProblem& p, z3::expr_vector& constraints,
                                              const Budget& budget);

// §5: `before` is transitive, hence (with before(l,k) = ¬before(k,l)) a strict total order.
void launch_order_is_total(const OrderAndPlacement& v, z3::expr_vector& constraints, const Budget& budget);

// Sound symmetry breaking (docs/theory/encoding.md): interchangeable kernels other than `keep_free`
// in index order; the very first block on SM 0 (all SMs start empty and alike).
void break_symmetries(const BlockProblem& p, const OrderAndPlacement& v, std::optional<int> keep_free, z3::context& ctx,
                      z3::expr_vector& constraints, const Budget& budget);

}  // namespace gpuwcrt
