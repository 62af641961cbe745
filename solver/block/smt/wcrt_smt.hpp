#pragma once
// The SMT engine: maximise an operation's response time over all scenarios, or certify a
// bound, with the block-level encoding (encode/block/block_encoding.hpp). Every model found is
// turned into a witness scenario and replayed through the simulator before it is used.
// `budget` covers the whole call: the incumbent search, building the encoding (which stops
// at the deadline) and every solver check. Running out of time or memory (Z3's limit or
// std::bad_alloc) ends the call with status unknown ("timeout", "memory limit") and keeps what
// was already proven: the best replayed response and the busy-time upper bound.
#include <functional>
#include <optional>
#include <string>

#include "bounds/engine_options.hpp"
#include "bounds/engine_stats.hpp"
#include "common/budget.hpp"
#include "common/progress.hpp"
#include "encode/block/block_problem.hpp"
#include "bounds/answer.hpp"

namespace gpuwcrt {

// Throws InputError (exit 3) for option combinations the SMT engine cannot take on this
// workload: the event encoding with copies, priorities, the NULL
// stream, after_stream_idle, block-time intervals or issue windows. smt_maximise and smt_certify call it first.
void require_smt_covers(const BlockProblem& p, const EngineOptions& o);

// Exact WCRT of `op` (status exact), or on timeout the best replayed response found (unknown).
// With block-time intervals or issue windows (BlockProblem::has_ranges): the maximum over the
// grid, a replayed lower bound, status exact only when it meets the busy-time bound, else
// unknown with grid_maximum_reason (docs/theory/encoding.md, "Intervals and windows: the grid").
WcrtAnswer smt_maximise(const Workload& w, const BlockProblem& p, int op, const EngineOptions& o, const Budget& budget,
                        EngineStats& stats, const ProgressSink& progress = {});

// Certified when no scenario gives a response > bound, refuted with a replayed counterexample.
// With ranges, no grid scenario above the bound is not a certificate: unknown (grid_certify_reason).
CertifyAnswer smt_certify(const Workload& w, const BlockProblem& p, int op, const Time& bound, const EngineOptions& o,
                          const Budget& budget, EngineStats& stats, const ProgressSink& progress = {});

// Why the SMT engine does not build its encoding for `p` under `o` within `budget`'s memory:
// the encoding it would build is estimated (encode/block/encoding_size.hpp) above its share,
// half of Budget::memory_bytes (the search needs the rest). Empty when it fits. smt_maximise
// and smt_certify answer such an operation "unknown (memory limit)" after their incumbent
// search; a link of auto's chain declines at once (solver/block/engines/smt_engine.cpp).
std::optional<std::string> smt_memory_refusal(const BlockProblem& p, const EngineOptions& o, const Budget& budget);

// Freeing a solver that ran until its deadline can take seconds (it may hold gigabytes), which
// would overrun --timeout by as much. A process that ends
// right after its run (the CLI) sets this: a solver stopped by the deadline of a budget whose
// end is the run's (Budget::leave_table_on_timeout) is then left allocated until the process
// exits. Only large solvers whose deadline has passed are kept (searched, or built for more
// than 50 ms); every later call of that run starts at or past its deadline, so nothing large
// is built after them. A solver stopped by the deadline of a slice is freed. Off by default:
// long-lived callers (tests, benchmarks) free everything.
void keep_timed_out_solvers_allocated(bool keep);

}  // namespace gpuwcrt
