#pragma once
// Runs one process under hard limits, so that a runaway gpuwcrt cannot take the machine.
#include <cstdint>
#include <string>
#include <vector>

namespace gpuwcrt::fuzz {

// The time limit is on CPU time (RLIMIT_CPU: SIGXCPU, then SIGKILL a second later), which
// other processes on a shared machine do not change; a wall-clock backstop, a multiple of it,
// catches a run that waits instead of computing.
struct Limits {
    unsigned cpu_seconds = 5;
    double wall_seconds = 15;                  // then the whole process group is killed
    std::uint64_t address_space = 4ull << 30;  // RLIMIT_AS
    std::uint64_t file_size = 64ull << 20;     // RLIMIT_FSIZE: an output past it is SIGXFSZ
};

struct RunOutcome {
    bool killed_by_limit = false;  // wall-clock backstop reached
    bool over_cpu_limit = false;   // ended by RLIMIT_CPU
    int exit_code = -1;            // when the process exited
    int signal = 0;                // when another signal ended it
    double seconds = 0;            // wall time
    double cpu_seconds = 0;        // user + system time of the process (all its threads)
};

// fork/exec of argv[0] with argv; standard input is /dev/null (no run can wait for a
// terminal), standard output and error go to the given files; own process group; no core.
// Safe to call from several threads at once. Throws std::runtime_error when it cannot start.
RunOutcome run_limited(const std::vector<std::string>& argv, const std::string& stdout_path,
                       const std::string& stderr_path, const Limits& limits);

}  // namespace gpuwcrt::fuzz
