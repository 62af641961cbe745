#pragma once
// The one budget every engine, encoding build and search runs under: the wall-clock deadline of
// the whole run (--timeout), the memory its tables may take (--max-memory), why a run stopped,
// and counters that a progress thread may read while an engine runs. A part of a run gets a
// slice of it, never a budget of its own, so that --timeout covers the whole process.
//
// An engine that runs out stops with BudgetExhausted (or tests expired() and returns) and
// answers "unknown" with what it has proven so far; it never reports a value it did not prove.
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "common/progress.hpp"

namespace gpuwcrt {

// Why a run or a search stopped. `states`: a search's limit on the states it stores;
// `time_limit`: the default deadline of a run without --timeout; `interrupted`: SIGINT or
// SIGTERM (request_interrupt). Declared weakest first: where several stops meet (the chunks of
// one search level, the processes of a search across processes), the strongest is the one
// reported, and a lack of memory outranks every other.
enum class StopReason { states, timeout, time_limit, interrupted, memory };
// "state budget", "timeout", "time limit", "interrupted", "memory limit"
std::string to_string(StopReason r);
// `into` becomes `r` unless it holds a stronger stop already.
inline void keep_strongest(std::optional<StopReason>& into, StopReason r) {
    if (!into || *into < r) into = r;
}

// The process-wide stop request of SIGINT and SIGTERM: once set, every budget has expired, so
// that every engine stops at its next poll and the command prints what it has proven. A flag
// only, so that a signal handler may set it.
namespace budget_detail {
inline std::atomic<bool> interrupt_requested{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");
}  // namespace budget_detail
inline void request_interrupt() noexcept { budget_detail::interrupt_requested.store(true); }
inline bool interrupt_requested() noexcept {
    return budget_detail::interrupt_requested.load(std::memory_order_relaxed);
}
// For tests that interrupt a run in-process.
inline void clear_interrupt() noexcept { budget_detail::interrupt_requested.store(false); }

struct BudgetExhausted : std::runtime_error {
    explicit BudgetExhausted(StopReason r) : std::runtime_error(to_string(r)), reason(r) {}
    StopReason reason;
};

// What a run is doing, for a progress thread: written by the engines, read by the reporter.
// Shared by a budget and every slice of it.
struct RunCounters {
    std::atomic<const char*> phase{""};
    std::atomic<std::uint64_t> states{0}, checks{0};
    // Operations asked for and those decided so far, and the worst open one's bounds
    // (publish_progress, solver/engine.hpp).
    std::atomic<std::uint64_t> operations{0}, decided{0};
    OpenBoundsText worst_open;
    // A phase whose counts start afresh: the last phase's would be read as its own.
    void start_phase(const char* name) {
        phase = name;
        states = checks = operations = decided = 0;
        worst_open.set("");
    }
};

class Budget {
public:
    using Clock = std::chrono::steady_clock;

    // No deadline; memory: default_memory_bytes().
    Budget();
    // `timeout` from now (none: no deadline), default memory.
    static Budget for_timeout(std::optional<std::chrono::milliseconds> timeout);
    // Until `at` (none: no deadline), default memory.
    static Budget until(std::optional<Clock::time_point> at);

    std::optional<Clock::time_point> deadline;  // nullopt = none
    // Bytes the engines' own tables (memo, stack, schedules) may take. Allocation failures
    // (std::bad_alloc under an address-space limit) count as running out as well.
    std::size_t memory_bytes;
    // Set by a run that ends right after its one answer: a search stopped by the deadline leaves
    // its table (or Z3 solver) to the operating system instead of freeing it (millions of states
    // take seconds to free, past --timeout). A slice ending before this deadline clears it: the
    // run goes on after the slice, and what a stopped part leaves allocated the later parts
    // would lack.
    bool leave_table_on_timeout = false;

    // What the deadline is: --timeout, or the default time limit of a run without it.
    StopReason deadline_reason = StopReason::timeout;

    bool expired() const {
        return interrupt_requested() || (stop_ && stop_->load(std::memory_order_relaxed)) ||
               (deadline && Clock::now() >= *deadline);
    }
    // Why an expired budget expired: interrupted, else its deadline's reason.
    StopReason expiry_reason() const { return interrupt_requested() ? StopReason::interrupted : deadline_reason; }
    // Throws BudgetExhausted when the deadline has passed or `bytes_in_use` exceeds the memory.
    void check(std::size_t bytes_in_use = 0) const {
        check_memory(bytes_in_use);
        if (expired()) throw BudgetExhausted(expiry_reason());
    }
    void check_memory(std::size_t bytes_in_use) const {
        if (bytes_in_use > memory_bytes) throw BudgetExhausted(StopReason::memory);
    }
    // Time left (0 once spent), or nullopt without a deadline.
    std::optional<std::chrono::milliseconds> remaining() const;

    // A part of this budget: `num`/`den` of the time left now (the same memory and counters).
    // Without a deadline the slice has none either. A part smaller than the whole does not
    // end the run: leave_table_on_timeout is cleared.
    Budget slice(long long num, long long den) const;
    // This budget, ending at `at` if that comes first (a cap of one phase, e.g. --rta-timeout).
    Budget capped_at(std::optional<Clock::time_point> at) const;
    // This budget, ending `cap` from now if that comes first.
    Budget capped(std::chrono::milliseconds cap) const { return capped_at(Clock::now() + cap); }
    // This budget, ending also when `stop` becomes true: a part that runs beside the others on
    // a thread of its own and ends when they no longer need it (the RTA columns of wcrt). Its
    // slices share the flag.
    Budget stopped_by(std::shared_ptr<const std::atomic<bool>> stop) const;

    RunCounters& counters() const { return *counters_; }

private:
    std::shared_ptr<RunCounters> counters_;
    std::shared_ptr<const std::atomic<bool>> stop_;
};

// A deadline test for a hot loop: reads the clock once every `every` calls only (a loop step
// costs far less than a clock read). One per loop and thread; the budget itself is shared.
class BudgetPoll {
public:
    explicit BudgetPoll(const Budget& b, unsigned every = 1024) : budget_(b), every_(every) {}
    bool expired() {
        if (++calls_ < every_) return false;
        calls_ = 0;
        return budget_.expired();
    }
    // Throws BudgetExhausted once expired() is true.
    void check() {
        if (expired()) throw BudgetExhausted(budget_.expiry_reason());
    }

private:
    const Budget& budget_;
    unsigned every_, calls_ = 0;
};

// How long a wcrt or certify run without --timeout may take: 60 s and 0.1 s per operation, at
// most 15 minutes (docs/decisions/0013-timeout-and-memory-limits.md, "Default time limit"). A run then ends on its own
// with the bounds proven so far, their status unknown ("time limit"), exit 2.
std::chrono::milliseconds default_time_limit(std::size_t operations);

// An unknown answer's reason once `run` has expired: the engines say "timeout" for any
// deadline; this says which: "interrupted" (SIGINT or SIGTERM) or "time limit" (the default
// time limit). Other reasons, and the reasons of a run not expired, are kept.
std::string stop_reason_text(const std::string& reason, const Budget& run);

// The instant the run started (mark_run_start, called first thing in main; else the first
// call of run_start): a run's --timeout counts from there, so that it covers loading the input.
void mark_run_start();
Budget::Clock::time_point run_start();

// 60 % of what the address-space limit (RLIMIT_AS, e.g. from --max-memory or prlimit) leaves
// above the current use; without such a limit half the physical memory.
std::size_t default_memory_bytes();

}  // namespace gpuwcrt
