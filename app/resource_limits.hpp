#pragma once
// The process-wide memory limit every command runs under (--max-memory, an option of the main
// command accepted before or after the subcommand), and what running out of memory means:
// "unknown (memory limit)", exit 2 — never an OOM kill or an internal error.
#include <chrono>
#include <cstddef>
#include <functional>

#include <CLI/CLI.hpp>

#include "common/budget.hpp"

namespace gpuwcrt::app {

// Adds --max-memory MB to `cli` and lets every subcommand pass it up to `cli`; call it after
// the subcommands have been added.
void add_resource_limit_options(CLI::App& cli);

// Checks the --max-memory value (an InputError in the CLI format when it is bad), sets the
// limits, then runs `action`. std::bad_alloc or Z3 running out of memory anywhere in it is
// reported as "unknown (memory limit)" with exit code 2.
int run_within_limits(const std::function<int()>& action);

// `hook` runs with the exit code when run_within_limits ends the process without unwinding (a Z3
// thread still runs): a run across MPI processes releases the others there (docs/theory/distributed.md).
void on_quick_exit(std::function<void(int)> hook);

// From now on SIGINT and SIGTERM stop the run instead of ending the process: the first sets
// the stop request every budget polls (common/budget.hpp), so that the command prints what it
// has proven (status unknown, "interrupted") and exits 2; a second ends the process at once
// (exit 128 + the signal). For the commands whose every long phase polls its budget.
void catch_interrupts();

// In a run across MPI processes (docs/theory/distributed.md): SIGTERM, which mpirun sends when it ends
// the job, ends this process at once with a line on stderr (catch_interrupts leaves it so);
// SIGUSR1, which mpirun forwards to every process, is an interrupt as SIGINT is in one process:
// the processes agree on it and rank 0 prints what is proven.
void launcher_signals();

// The time a run with a deadline keeps for what follows its engines (the RTA columns' end and the
// result: a table or JSON of every operation), measured against the speed the process gets now.
// A fixed reserve holds on an idle machine only: on 2 cores under four builds the process got a
// sixth of a core, and the same output took six times its time, past --timeout. (The fixed
// reserve of engines_budget, app/engine_run.hpp, stays as the least.)
//
// The CPU time writing the result of `operations` operations takes on an idle machine, with a
// margin: 0.1 s + 3 ms per operation (measured at 4 000 operations on the AMD EPYC VM: about 11 s
// from the engines' stop to the end of `wcrt --json`, most of it building the JSON with every
// operation's witness; bench/RESULTS.md "limits").
std::chrono::milliseconds output_cpu_time(std::size_t operations);

// `engines` (a part of `run`), ending also when the time left to `run`'s deadline falls to
// output_cpu_time(operations) at the speed the process gets now: a thread of its own reads every
// 0.2 s how long this process's threads ran and waited for a CPU over the last second (the
// scheduler's account), and stops the engines then, but not before half the time `run` has left
// now. Without a deadline, `engines` unchanged.
Budget stopped_for_output(const Budget& engines, const Budget& run, std::size_t operations);

}  // namespace gpuwcrt::app
