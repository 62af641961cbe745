#include "common/budget.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>

namespace gpuwcrt {
namespace {

std::size_t address_space_in_use() {
    std::ifstream statm("/proc/self/statm");
    std::size_t pages = 0;
    statm >> pages;
    return pages * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace

std::size_t default_memory_bytes() {
    rlimit lim{};
    if (getrlimit(RLIMIT_AS, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY) {
        const std::size_t used = address_space_in_use();
        const std::size_t limit = static_cast<std::size_t>(lim.rlim_cur);
        return limit > used ? (limit - used) / 10 * 6 : 0;
    }
    const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || size <= 0) return std::size_t{1} << 31;  // unknown machine: 2 GiB
    return static_cast<std::size_t>(pages) / 2 * static_cast<std::size_t>(size);
}

std::string to_string(StopReason r) {
    switch (r) {
        case StopReason::states:
            return "state budget";
        case StopReason::timeout:
            return "timeout";
        case StopReason::memory:
            return "memory limit";
        case StopReason::time_limit:
            return "time limit";
        case StopReason::interrupted:
            return "interrupted";
    }
    return "timeout";
}

namespace {
std::optional<Budget::Clock::time_point> run_started;
}  // namespace

void mark_run_start() { run_started = Budget::Clock::now(); }

Budget::Clock::time_point run_start() {
    if (!run_started) mark_run_start();
    return *run_started;
}

Budget::Budget() : memory_bytes(default_memory_bytes()), counters_(std::make_shared<RunCounters>()) {}

Budget Budget::for_timeout(std::optional<std::chrono::milliseconds> timeout) {
    Budget b;
    if (timeout) b.deadline = Clock::now() + *timeout;
    return b;
}

Budget Budget::until(std::optional<Clock::time_point> at) {
    Budget b;
    b.deadline = at;
    return b;
}

std::optional<std::chrono::milliseconds> Budget::remaining() const {
    using std::chrono::milliseconds;
    if (!deadline) return std::nullopt;
    if (interrupt_requested() || (stop_ && stop_->load(std::memory_order_relaxed))) return milliseconds(0);
    const auto left = std::chrono::duration_cast<milliseconds>(*deadline - Clock::now());
    return std::max(left, milliseconds(0));
}

Budget Budget::slice(long long num, long long den) const {
    Budget b = *this;
    if (const auto left = remaining()) b.deadline = Clock::now() + *left / den * num;
    if (num < den) b.leave_table_on_timeout = false;
    return b;
}

Budget Budget::stopped_by(std::shared_ptr<const std::atomic<bool>> stop) const {
    Budget b = *this;
    b.stop_ = std::move(stop);
    return b;
}

Budget Budget::capped_at(std::optional<Clock::time_point> at) const {
    Budget b = *this;
    if (at && (!b.deadline || *at < *b.deadline)) b.deadline = at;
    return b;
}

std::chrono::milliseconds default_time_limit(std::size_t operations) {
    using std::chrono::milliseconds;
    const auto counted = static_cast<long long>(std::min<std::size_t>(operations, 1'000'000));
    return std::min<milliseconds>(milliseconds(60'000) + milliseconds(100) * counted, milliseconds(15 * 60'000));
}

std::string stop_reason_text(const std::string& reason, const Budget& run) {
    if (reason != "timeout" || !run.expired()) return reason;
    return to_string(run.expiry_reason());
}

}  // namespace gpuwcrt
