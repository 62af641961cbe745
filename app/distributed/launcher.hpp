#pragma once
// What an MPI launcher (mpirun, Slurm's srun, MPICH's Hydra) tells the processes it starts, read
// from the environment without MPI: a build without MPI uses it to refuse a run across processes
// (each process would otherwise run the whole command and print it again).
#include <cstdlib>
#include <string>

namespace gpuwcrt::app {

// The variables a launcher sets in each process it starts: Open MPI's mpirun, PMIx (srun
// --mpi=pmix, prterun) and PMI-1/2 (MPICH's Hydra, srun --mpi=pmi2).
inline bool started_by_launcher() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
        if (std::getenv(v)) return true;
    return false;
}

// The processes the launcher started and this one's rank, where it says (1 and 0 otherwise).
inline long launched_processes() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"})
        if (const char* n = std::getenv(v)) return std::strtol(n, nullptr, 10);
    return 1;
}
inline long launched_rank() {
    for (const char* v : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})
        if (const char* n = std::getenv(v)) return std::strtol(n, nullptr, 10);
    return 0;
}

}  // namespace gpuwcrt::app
