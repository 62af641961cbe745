#include "bounds/warp_budget.hpp"

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

WarpBudget::WarpBudget() : memory_bytes(default_memory_bytes()) {}

}  // namespace gpuwcrt
