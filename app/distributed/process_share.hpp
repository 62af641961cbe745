#pragma once
// A command that splits its own work over the processes of a run under mpirun
// (docs/theory/distributed.md, "Sweeps"): each process takes its share of the points, rank 0 gathers
// the results and prints. Other commands run on rank 0 alone and hand only their exact searches
// to the other processes. Without MPI (or not started by a launcher) there is one process of
// rank 0 and gathering returns this process's bytes.
#include <string>
#include <vector>

namespace gpuwcrt::app {

#ifdef GPUWCRT_HAVE_MPI
// Called by a command's CLI callback: the command runs on every process (before the others
// serve rank 0's exact searches), not on rank 0 alone.
void run_on_every_process();
bool runs_on_every_process();

int share_rank();
int share_count();
// Every process's `bytes`, in rank order, on rank 0 (empty on the others). Collective.
std::vector<std::string> gather_shares(const std::string& bytes);
#else
inline void run_on_every_process() {}
inline bool runs_on_every_process() { return false; }
inline int share_rank() { return 0; }
inline int share_count() { return 1; }
inline std::vector<std::string> gather_shares(const std::string& bytes) { return {bytes}; }
#endif

}  // namespace gpuwcrt::app
