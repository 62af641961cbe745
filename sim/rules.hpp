#pragma once
// docs/theory/semantics.md §4, one rule (or one step that applies a named group of rules) per function, named
// after the rules it applies. R1 (per-block limits) is checked when a workload is read
// (check_block_limits, model/validate.cpp), so no step repeats it; the SM chosen among those
// that fit (docs/theory/semantics.md §5) is sim/placement.hpp's. docs/theory/rules.md maps every rule to these
// functions and to its statement in each engine and encoding.
#include "sim/sim_state.hpp"

namespace gpuwcrt::rules {

// Step 1 — completions at `now`: blocks release their SM resources (R2, R3, registers,
// resident blocks) and a kernel whose last block ended leaves its stream queue (G4); a
// finished copy frees its engine and leaves its stream queue (C4).
void g4_c4_complete(SimState& s);

// Step 1, W1 — `op` has completed: an operation waiting on it (Operation::wait) whose waits
// are now all done and which heads its stream may join its EE or the CE queue, at this instant
// (step 3, in launch order with the others).
void w1_waits_done(SimState& s, int op);

// Step 2 — G1: operations whose issue instant is `now` join their stream queues, in launch order.
bool g1_issue(SimState& s);

// N1 / N2: whether the kernel at the head of its stream may join an EE queue now.
bool n1_n2_may_join(const SimState& s, int kernel);

// Step 3 — G2 with A1 (EE queue of the stream's priority), N1/N2, and C1 for copies. Operations
// joining at the same instant join in launch order.
bool g2_a1_c1_admit_stream_heads(SimState& s);

// Step 4 — C2/C3: idle copy engines take the head of the CE queue.
bool c2_c3_start_copies(SimState& s);

// R2 (threads), R3 (shared memory), registers and resident blocks: the SMs on which one more
// block of `kernel` fits, every per-SM sum within its limit (SmUsage::fits).
std::vector<int> r_fitting_sms(const SimState& s, int kernel);
// The same SMs into `out` (cleared first), so that a loop over every block reuses one buffer.
void r_fitting_sms(const SimState& s, int kernel, std::vector<int>& out);

// Step 5 — X1 (only the head of the EE queue), A2 (the highest-priority non-empty EE queue),
// R2/R3 via r_fitting_sms, G3 (a fully dispatched kernel leaves its EE queue).
bool x1_a2_g3_dispatch_blocks(SimState& s);

}  // namespace gpuwcrt::rules
