#pragma once
// The thesis' Algorithm 2 (SPEC §7) for a symbolic launch order, as integer constraints
// (docs/rta/rta-soundness.md, "The SMT form"):
//   at[p][j]   kernel j is analysed at position p: a permutation that keeps releases
//              non-decreasing and each stream's order among kernels of equal release;
//   x          the free instants of the one big SM's slots as a SORTED vector (scaled; at most
//              Σ slots of them: more are never all busy). Slots are interchangeable, so the
//              sorted vector is Algorithm 2's whole state (t_a, g_f, h), and
//   one slot   is "the earliest slot x[0] takes the block: remove x[0], insert x[0] + C"
//              (a sorted insertion: min(x[m+1], max(x[m], v)), no search variable);
//   a kernel   first raises every x to T = max(t_a, r) (FIFO and the release extension), then
//              takes max_j g_j slot steps of which the first g (its own) are active;
//   t[p]       its last block's start, f = t + C.
// The only choice left to the solver is the order.
#include <stdexcept>
#include <vector>

#include <z3++.h>

#include "encode/build_families.hpp"
#include "encode/rta/rta_order_problem.hpp"

namespace gpuwcrt {

// Thrown when the encoding would exceed `max_terms` (positions × slot steps × slots): the caller answers
// unknown rather than building gigabytes.
struct RtaEncodingTooLarge : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct RtaEncoding {
    std::vector<std::vector<z3::expr>> at;  // at[p][j]
    std::vector<z3::expr> position;         // of each kernel in the order
    std::vector<z3::expr> finish;           // f_j (scaled), per kernel
    bool interrupted = false;               // the budget's deadline passed while building
};

RtaEncoding encode_rta_orders(z3::context& ctx, z3::solver& s, const RtaOrderProblem& p,
                              const Budget& budget = Budget{}, long long max_terms = 4'000'000);

}  // namespace gpuwcrt
