#pragma once
// The abstract transition: dispatch one more operation (a kernel fully, or start a copy) from
// an abstract state, for every choice some concretisation allows (which operation is next in
// its queue, which SM each block takes). docs/abstraction.md argues each step.
#include <vector>

#include "solver/abstraction/problem.hpp"
#include "solver/abstraction/state.hpp"

namespace gpuwcrt::abstraction {

struct Successor {
    int op = 0;
    AbstractState state;
    Interval issue, done;  // of `op`: its response is at most done.hi - issue.lo
};

// Appends to `out`. `partial_cap` bounds the SM-placement branches kept per block of one
// kernel (more are merged by hull, which is sound and only loses precision).
void successors(const Problem& p, const OpSet& s, const AbstractState& x, int partial_cap,
                std::vector<Successor>& out);

// The earliest instant >= `from` at which one more block of `demand` fits on an SM holding
// `blocks`, each ending at its end.lo (`late` false) or end.hi (`late` true); `never` if it
// never fits. Monotone: later ends or a later `from` never give an earlier instant, because
// room only grows as blocks end (R1-R3, registers, resident blocks are per-SM sums).
std::int64_t fit_instant(const Problem& p, const SmBlocks& sm, const BlockDemand& demand, bool late,
                         std::int64_t from);

}  // namespace gpuwcrt::abstraction
