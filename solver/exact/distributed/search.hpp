#pragma once
// The exact search across MPI processes (docs/theory/distributed.md). The process of rank 0 runs the
// command as one process would; when it comes to an exact search (`exact_wcrt`), it hands the
// workload to the other processes, which wait for such jobs in serve(), and every process takes
// the states a hash of their key names it owner of, level by level. The answers, witnesses
// included, are those of the search in one process.
#include <cstddef>
#include <optional>

#include "bounds/engine_options.hpp"
#include "common/budget.hpp"
#include "common/progress.hpp"
#include "solver/exact/explorer.hpp"

namespace gpuwcrt::exact::distributed {

// On rank 0: the search across every process. nullopt when the workload cannot be handed over
// (one without a TOML form, e.g. an unrolled frame): the caller then searches alone.
std::optional<ExactResult> exact_wcrt_across_processes(const Workload& w, const EngineOptions& o, const Budget& budget,
                                                       const ExactSearchOptions& options, const ProgressSink& progress,
                                                       const StatesSignal& stored);

// On every other process: takes part in rank 0's searches until it releases them; returns the
// exit code rank 0 ends with. An error that leaves the processes unable to agree ends the run
// (MPI_Abort) with a message on stderr.
int serve();
// On rank 0, once: the run is over, with `exit_code`; serve() returns it on every other process.
void release(int exit_code);

// The bytes a process queues for the others before an exchange round (exchange.hpp): set by the
// app (GPUWCRT_EXCHANGE_BYTES) on rank 0, which hands it over with every search.
void set_round_bytes(std::size_t bytes);

}  // namespace gpuwcrt::exact::distributed
