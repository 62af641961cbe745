#pragma once
// The process-wide memory limit every command runs under (--max-memory, an option of the main
// command accepted before or after the subcommand), and what running out of memory means:
// "unknown (memory limit)", exit 2 — never an OOM kill or an internal error.
#include <functional>

#include <CLI/CLI.hpp>

namespace gpuwcrt::app {

// Adds --max-memory MB to `cli` and lets every subcommand pass it up to `cli`; call it after
// the subcommands have been added.
void add_resource_limit_options(CLI::App& cli);

// Checks the --max-memory value (an InputError in the CLI format when it is bad), sets the
// limits, then runs `action`. std::bad_alloc or Z3 running out of memory anywhere in it is
// reported as "unknown (memory limit)" with exit code 2.
int run_within_limits(const std::function<int()>& action);

// `hook` runs with the exit code when run_within_limits ends the process without unwinding (a Z3
// thread still runs): a run across MPI processes releases the others there (docs/distributed.md).
void on_quick_exit(std::function<void(int)> hook);

// From now on SIGINT and SIGTERM stop the run instead of ending the process: the first sets
// the stop request every budget polls (common/budget.hpp), so that the command prints what it
// has proven (status unknown, "interrupted") and exits 2; a second ends the process at once
// (exit 128 + the signal). For the commands whose every long phase polls its budget.
void catch_interrupts();

// In a run across MPI processes (docs/distributed.md): SIGTERM, which mpirun sends when it ends
// the job, ends this process at once with a line on stderr (catch_interrupts leaves it so);
// SIGUSR1, which mpirun forwards to every process, is an interrupt as SIGINT is in one process:
// the processes agree on it and rank 0 prints what is proven.
void launcher_signals();

}  // namespace gpuwcrt::app
