#pragma once
// The abstract transition: dispatch one more operation (a kernel fully, or start a copy) from
// an abstract state, for every choice some concretisation allows (which operation is next in
// its queue, which SM each block takes). docs/theory/abstraction.md argues each step.
#include <chrono>
#include <optional>
#include <vector>

#include "bounds/abstraction/occupancy.hpp"
#include "bounds/abstraction/problem.hpp"
#include "common/budget.hpp"
#include "bounds/abstraction/state.hpp"

namespace gpuwcrt::abstraction {

struct Successor {
    int op = 0;
    AbstractState state;
    Interval issue, done;       // of `op`: its response is at most done.hi - issue.lo
    std::vector<int> block_sm;  // concrete mode: the SM of each block of a kernel
};

// Appends to `out`. `partial_cap` bounds the SM-placement branches kept per block of one
// kernel (more are merged by hull, which is sound and only loses precision). `concrete`: for
// the lower-bound beam on point times, where every interval is a point: SMs keep their
// indices (not sorted), the SM of each block is recorded, and branches beyond the cap are
// dropped instead of merged (a beam needs no soundness, only real runs).
//
// One transition of a kernel with very many blocks (10^5) takes seconds, longer than a whole
// --timeout: the block loop checks `budget` every 64 blocks (counted across calls) and throws BudgetExhausted once
// it has run out. The explorer and the beam catch it and stop as at their own deadline (an
// unfinished exploration proves nothing).
void successors(const Problem& p, const OpSet& s, const AbstractState& x, int partial_cap, const Budget& budget,
                std::vector<Successor>& out, bool concrete = false);

}  // namespace gpuwcrt::abstraction
