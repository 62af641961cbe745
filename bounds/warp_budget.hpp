#pragma once
// What a long warp run obeys and reports: one deadline and one memory budget for every engine
// of a point, and progress counters that a reporting thread may read while an engine runs.
// An engine that runs out of either stops with WarpStopped and answers "unknown" with the
// bounds it has; it never returns a makespan it did not prove.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace gpuwcrt {

enum class WarpStopReason { timeout, memory };

// Inline, like the checks below: encode/ uses them and does not link bounds/.
inline std::string to_string(WarpStopReason r) { return r == WarpStopReason::timeout ? "timeout" : "memory limit"; }

struct WarpStopped : std::runtime_error {
    explicit WarpStopped(WarpStopReason r) : std::runtime_error(to_string(r)), reason(r) {}
    WarpStopReason reason;
};

class WarpBudget {
public:
    using Clock = std::chrono::steady_clock;

    // No deadline; memory: default_memory_bytes().
    WarpBudget();

    std::optional<Clock::time_point> deadline;
    // Bytes the engines' own tables (memo, stack, schedules) may take. Allocation failures
    // (std::bad_alloc under an address-space limit) count as running out as well.
    std::size_t memory_bytes;
    // Set by a run that ends right after its one point (`warp`, not `warp-sweep`): a search
    // stopped by the deadline leaves its table to the operating system instead of freeing it
    // (millions of states took 1.4 s to free, past --timeout + 1 s).
    bool leave_table_on_timeout = false;

    // Throws WarpStopped when the deadline has passed or `bytes_in_use` exceeds the budget.
    void check(std::size_t bytes_in_use = 0) const {
        check_memory(bytes_in_use);
        if (expired()) throw WarpStopped(WarpStopReason::timeout);
    }
    void check_memory(std::size_t bytes_in_use) const {
        if (bytes_in_use > memory_bytes) throw WarpStopped(WarpStopReason::memory);
    }
    bool expired() const { return deadline && Clock::now() >= *deadline; }
    std::optional<std::chrono::milliseconds> remaining() const {
        if (!deadline) return std::nullopt;
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now());
        return std::max(left, std::chrono::milliseconds(0));
    }

    // Progress, for the reporting thread only: what runs now, states stored, solver checks.
    mutable std::atomic<const char*> phase{""};
    mutable std::atomic<std::uint64_t> states{0}, checks{0};
};

// 60 % of what the address-space limit (RLIMIT_AS, e.g. from --max-memory or prlimit) leaves
// above the current use; without such a limit half the physical memory.
std::size_t default_memory_bytes();

}  // namespace gpuwcrt
