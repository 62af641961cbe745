#include "app/resource_limits.hpp"

#include <malloc.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <z3++.h>

#include "app/exit_codes.hpp"
#include "common/budget.hpp"
#include "model/source_location.hpp"
#include "solver/block/smt/wcrt_smt.hpp"
#include "solver/z3/z3_session.hpp"

namespace gpuwcrt::app {
namespace {

constexpr std::uint64_t mib = 1024 * 1024;
// Address space beyond the run's own data: thread stacks (8 MiB reserved each) and small
// reservations. The C library's extra per-thread heap arenas (64 MiB reserved each) need no
// room here: when the limit refuses one, that thread uses the main heap.
constexpr std::uint64_t address_space_margin_mib = 64;
// Z3 4.8.12 crashes (SIGSEGV) instead of reporting memory exhaustion when its limit is so
// small that creating a context exceeds it (seen at 9 MiB, not at 18 MiB and above).
constexpr std::uint64_t smallest_limit_mib = 64;

std::optional<std::string> max_memory_option;  // as given: checked by run_within_limits
std::uint64_t limit_in_force_mib = 0;          // for the message when it is exceeded
std::function<void(int)> quick_exit_hook;      // on_quick_exit

// A cgroup (v2) memory limit, e.g. of a container: exceeding it means an OOM kill.
std::optional<std::uint64_t> cgroup_limit_mib() {
    std::ifstream in("/sys/fs/cgroup/memory.max");
    std::string text;
    if (!(in >> text)) return std::nullopt;
    std::uint64_t bytes = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), bytes);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;  // "max"
    return bytes / mib;
}

struct MachineMemory {
    std::uint64_t ram_mib = 0;   // physical RAM, or the cgroup limit if smaller
    std::uint64_t most_mib = 0;  // the largest --max-memory accepted: RAM + swap (cgroup-capped)
};

MachineMemory machine_memory() {
    struct sysinfo si {};
    sysinfo(&si);
    MachineMemory m;
    const std::uint64_t unit = si.mem_unit ? si.mem_unit : 1;
    m.ram_mib = static_cast<std::uint64_t>(si.totalram) / mib * unit;
    m.most_mib = m.ram_mib + static_cast<std::uint64_t>(si.totalswap) / mib * unit;
    if (auto c = cgroup_limit_mib()) {
        m.ram_mib = std::min(m.ram_mib, *c);
        m.most_mib = std::min(m.most_mib, *c);
    }
    m.ram_mib = std::max(m.ram_mib, smallest_limit_mib);
    m.most_mib = std::max(m.most_mib, m.ram_mib);
    return m;
}

// What a shared machine (a CI runner, a laptop) can give one run: the engines size their
// tables and solvers from it (Budget::memory_bytes), so that a run stays inside it by design.
constexpr std::uint64_t default_limit_cap_mib = 2048;

std::uint64_t default_limit_mib(const MachineMemory& m) {
    return std::max(smallest_limit_mib, std::min(default_limit_cap_mib, m.ram_mib / 2));
}

std::uint64_t parse_limit_mib(const std::string& given, const MachineMemory& m) {
    const std::string shown = given.empty() ? "an empty value" : given;
    const bool digits_only =
        !given.empty() && std::all_of(given.begin(), given.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits_only) throw option_error("--max-memory", "must be a positive integer (MiB), got " + shown);
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(given.data(), given.data() + given.size(), v);
    if (ec == std::errc() && v < smallest_limit_mib)
        throw option_error("--max-memory",
                           "must be at least " + std::to_string(smallest_limit_mib) + " (MiB), got " + shown);
    if (ec != std::errc() || v > m.most_mib)
        throw option_error("--max-memory", "must be at most " + std::to_string(m.most_mib) +
                                               " (MiB of RAM + swap on this machine), got " + shown);
    return v;
}

std::uint64_t baseline_address_space_mib() {
    std::ifstream in("/proc/self/statm");
    std::uint64_t pages = 0;
    in >> pages;
    return pages * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE)) / mib;
}

// RLIMIT_AS stops every allocation beyond the limit (malloc returns null, new throws
// bad_alloc) instead of letting the kernel's OOM killer end the process. Z3 gets a limit of
// its own below it, so that the solver usually stops first and answers unknown cleanly.
void apply_memory_limit(std::uint64_t limit_mib) {
    rlimit current{};
    getrlimit(RLIMIT_AS, &current);
    const std::uint64_t wanted = baseline_address_space_mib() + limit_mib + address_space_margin_mib;
    rlimit next = current;
    next.rlim_cur = wanted * mib;
    if (current.rlim_cur != RLIM_INFINITY) next.rlim_cur = std::min<rlim_t>(next.rlim_cur, current.rlim_cur);
    if (current.rlim_max != RLIM_INFINITY) next.rlim_cur = std::min<rlim_t>(next.rlim_cur, current.rlim_max);
    setrlimit(RLIMIT_AS, &next);  // cannot fail: never above the hard limit
    // One malloc arena for every thread: glibc reserves 64 MiB of address space for each new
    // thread's arena, and under a small RLIMIT_AS that fails and the thread then takes every
    // allocation by its own mmap, which makes multi-threaded engines much slower.
    mallopt(M_ARENA_MAX, 1);
    limit_in_force_mib = limit_mib;
    z3::set_param("memory_max_size", std::to_string(limit_mib * 9 / 10).c_str());
}

int report_memory_limit() {
    std::cerr << "gpuwcrt: unknown (memory limit): the run needed more than " << limit_in_force_mib
              << " MiB (--max-memory)\n";
    return exit_unknown;
}

// Only async-signal-safe calls: an atomic store, write and _exit.
extern "C" void on_interrupt_signal(int signal_number) {
    if (interrupt_requested()) _exit(128 + signal_number);
    request_interrupt();
    static const char message[] =
        "\ngpuwcrt: interrupted: printing what is proven so far (a second interrupt ends at once)\n";
    [[maybe_unused]] const ssize_t written = write(STDERR_FILENO, message, sizeof message - 1);
}

using std::chrono::duration;
using Clock = Budget::Clock;

// Nanoseconds this process's threads have run on a CPU and waited, runnable, for one
// (/proc/PID/task/TID/schedstat: the scheduler's own account; {0, 0} where the kernel keeps none).
struct CpuWait {
    double run = 0, wait = 0;
};

CpuWait cpu_and_wait() {
    CpuWait total;
    std::error_code ec;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", ec)) {
        std::ifstream in(task.path() / "schedstat");
        double run = 0, wait = 0;
        if (in >> run >> wait) total.run += run, total.wait += wait;
    }
    return total;
}

// How many times its CPU time a runnable thread of this process takes now, over the last
// second: 1 on idle cores, about the runnable threads per core under load.
class Slowdown {
public:
    // Never throws: under --max-memory an allocation here may fail, and then the last factor stands.
    double measure() noexcept try {
        samples_.push_back(cpu_and_wait());
        if (samples_.size() > 5) samples_.erase(samples_.begin());
        const double run = samples_.back().run - samples_.front().run;
        const double wait = samples_.back().wait - samples_.front().wait;
        if (run > 5e6) factor_ = std::max(1.0, (run + wait) / run);  // else: too little run to say
        return factor_;
    } catch (...) {
        return factor_;
    }

private:
    std::vector<CpuWait> samples_;
    double factor_ = 1;
};

bool sigterm_from_launcher = false;  // launcher_signals

// Async-signal-safe as well: mpirun sends SIGTERM when it ends the job (Ctrl-C on it, or a process
// of the run failed), and it stops forwarding the processes' output then, so a printed answer
// could arrive cut: nothing is printed.
extern "C" void on_launcher_termination(int signal_number) {
    static const char message[] =
        "gpuwcrt: ended by the MPI launcher (Ctrl-C on mpirun, or a process of the run failed): no "
        "answer; to stop a run and keep what is proven, send SIGUSR1 to mpirun\n";
    [[maybe_unused]] const ssize_t written = write(STDERR_FILENO, message, sizeof message - 1);
    _exit(128 + signal_number);
}

}  // namespace

void launcher_signals() {
    sigterm_from_launcher = true;
    signal(SIGTERM, on_launcher_termination);
    struct sigaction action {};
    action.sa_handler = on_interrupt_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGUSR1, &action, nullptr);  // mpirun forwards it to every process
}

void catch_interrupts() {
    struct sigaction action {};
    action.sa_handler = on_interrupt_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, nullptr);
    if (!sigterm_from_launcher) sigaction(SIGTERM, &action, nullptr);
}

void on_quick_exit(std::function<void(int)> hook) { quick_exit_hook = std::move(hook); }

void add_resource_limit_options(CLI::App& cli) {
    const MachineMemory m = machine_memory();
    const std::string help =
        "memory limit of the whole run in MiB, before or after the subcommand (default " +
        std::to_string(default_limit_mib(m)) + ": 2048 or half this machine's RAM, whichever is smaller;\n" +
        std::to_string(smallest_limit_mib) + " to " + std::to_string(m.most_mib) +
        ", RAM + swap). The engines size their searches and solvers to stay within it; what they\n"
        "cannot decide within it is 'unknown (memory limit)', exit 2. Resident memory stays below\n"
        "MB + " +
        std::to_string(address_space_margin_mib) +
        " MiB (thread stacks) + the program itself (its code and libraries, about 10-30 MiB)";
    cli.add_option("--max-memory", max_memory_option, help)->type_name("MB");
    // Also each subcommand's own, so that its --help lists the limit and its default.
    for (CLI::App* sub : cli.get_subcommands({}))
        sub->add_option("--max-memory", max_memory_option, help)->type_name("MB");
}

int run_within_limits(const std::function<int()>& action) {
    const MachineMemory m = machine_memory();
    apply_memory_limit(max_memory_option ? parse_limit_mib(*max_memory_option, m) : default_limit_mib(m));
    // The process ends right after the command: freeing a solver stopped by --timeout would
    // only delay that end by seconds (solver/block/smt/wcrt_smt.hpp).
    keep_timed_out_solvers_allocated(true);
    Z3Session::stop_waiting_at_deadline(true);
    try {
        const int code = action();
        if (Z3Session::abandoned_checks() > 0) {  // a Z3 thread still runs: no static destructors under it
            std::cout.flush();
            std::cerr.flush();
            std::fflush(nullptr);
            if (quick_exit_hook) quick_exit_hook(code);
            std::_Exit(code);
        }
        return code;
    } catch (const std::bad_alloc&) {
        return report_memory_limit();
    } catch (const z3::exception& e) {
        if (!is_memory_exhaustion(e)) throw;
        return report_memory_limit();
    }
}

std::chrono::milliseconds output_cpu_time(std::size_t operations) {
    using std::chrono::milliseconds;
    const auto counted = static_cast<long long>(std::min<std::size_t>(operations, 1'000'000));
    return milliseconds(100) + milliseconds(counted * 3);
}

Budget stopped_for_output(const Budget& engines, const Budget& run, std::size_t operations) {
    if (!run.deadline) return engines;
    auto stop = std::make_shared<std::atomic<bool>>(false);
    const Clock::time_point deadline = *run.deadline;
    // The engines get half the time left at least: an estimate that grows with the operations
    // must not leave them nothing (10 000 operations: 13 s of CPU estimated, 3 s taken).
    const Clock::time_point earliest = Clock::now() + (deadline - Clock::now()) / 2;
    const duration<double> needed = output_cpu_time(operations);
    // Detached: it ends at the stop or at the deadline, and touches nothing but the flag it owns.
    std::thread([stop, deadline, earliest, needed] {
        Slowdown slowdown;
        while (Clock::now() < deadline && !interrupt_requested()) {
            const double factor = slowdown.measure();  // every 0.2 s, the window filled from the start
            if (Clock::now() >= earliest && deadline - Clock::now() <= needed * factor) {
                stop->store(true);
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
    }).detach();
    return engines.stopped_by(stop);
}

}  // namespace gpuwcrt::app
