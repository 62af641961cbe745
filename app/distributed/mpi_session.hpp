#pragma once
// A run started by an MPI launcher (mpirun, Slurm's srun: docs/theory/distributed.md). Rank 0 runs the
// command as a single process does and prints everything; the other processes parse the same
// command line (silently: rank 0 reports its errors) for its limits, then take part in rank 0's
// exact searches until it ends, and exit with rank 0's exit code. Not started by a launcher, the
// tool is a plain process: MPI is not even initialised.
#include <functional>

namespace gpuwcrt::app {

// The command line as one process runs it: `instead`, when given, runs in place of the
// command's action once the command line is parsed (with the same limits); parse errors and
// --help print nothing then.
using CommandBody = std::function<int(int argc, char** argv, const std::function<int()>* instead)>;

int run_as_mpi_process(int argc, char** argv, const CommandBody& body);

}  // namespace gpuwcrt::app
