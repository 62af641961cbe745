#pragma once
// The few MPI operations the search across processes uses (docs/theory/distributed.md), each on
// MPI_COMM_WORLD. Every collective is started non-blocking and waited for by polling with short
// sleeps: a process that waits for the others (a worker between searches, a process whose part
// of a level is done) then leaves the cores to those that work, instead of spinning on them as
// MPI's blocking calls do (the processes may share a node's cores, or be more than its cores).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/budget.hpp"

namespace gpuwcrt::exact::distributed {

// Whether MPI was initialised (the app's session does it when a launcher started the process).
bool mpi_running();
int process_rank();
int process_count();
// Whether a run spreads over processes: MPI runs with more than one.
bool spread();
// The processes of this run on this process's node (collective: every process calls it once,
// at the same point of the run; later calls return the value kept).
int processes_on_node();

// Collectives over every process.
void broadcast(std::string& bytes, int root);                 // `bytes` resized on the receivers
void broadcast(std::vector<std::int64_t>& values, int root);  // same size on every process
void max_over_processes(std::vector<std::int64_t>& values);
void sum_over_processes(std::vector<std::int64_t>& values);
// Every process's `bytes`, in rank order, on `root` (empty elsewhere).
std::vector<std::string> gather(const std::string& bytes, int root);
// `counts[p]` bytes to process p: the counts each process will receive from each.
std::vector<int> exchange_counts(const std::vector<int>& counts);
// Sends `out` (segments of sizes `send` in rank order) and receives into `in` (segments of sizes
// `receive`, which exchange_counts gave).
void exchange_bytes(const std::string& out, const std::vector<int>& send, std::string& in,
                    const std::vector<int>& receive);

// A stop as it crosses processes: 0 for none, else the StopReason, so that the largest code is
// the strongest stop (max_over_processes).
inline std::int64_t stop_code(std::optional<StopReason> stop) {
    return stop ? static_cast<std::int64_t>(*stop) + 1 : 0;
}
inline std::optional<StopReason> stop_of_code(std::int64_t code) {
    if (code <= 0) return std::nullopt;
    return static_cast<StopReason>(code - 1);
}

// A failure that leaves the processes unable to agree (an internal error in the middle of a
// collective step): `message` on stderr, then the whole run ends with `code` (MPI_Abort).
[[noreturn]] void abort_run(const std::string& message, int code);

}  // namespace gpuwcrt::exact::distributed
