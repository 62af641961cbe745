#pragma once
// The falsifier of issue 14: the smallest workload of a stated parameter grid where the thesis
// RTA under-estimates the TX2, per scope reason, by systematic enumeration in increasing size.
// "Smallest": workloads are visited by total number of blocks, then number of kernels, then
// the grid's order; every workload visited before the reported one was checked and is safe.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "model/workload.hpp"

namespace gpuwcrt::rta_orders {

struct FalsifyGrid {
    std::string reason;                      // the scope reason the grid isolates
    std::string platform_toml;               // [platform] lines (TX2 defaults otherwise)
    std::vector<std::int64_t> threads;       // block sizes drawn per kernel
    std::vector<std::int64_t> shared_mem;    // bytes per block
    std::vector<std::int64_t> registers;     // per thread
    std::vector<std::int64_t> block_time;    // C
    int max_kernels = 3;                     // one stream each, all issued at 0
    int max_blocks = 4;                      // per kernel
};

// The grids `rta-falsify` knows, by reason name (mixed-block-sizes, non-dividing-block-size,
// shared-memory, registers, resident-blocks).
std::vector<FalsifyGrid> falsify_grids();

struct FalsifyFinding {
    std::string toml;        // the workload
    std::string kernel;      // the kernel under-estimated
    Time rta, tx2;           // RTA (fixed order: RTA(order); all orders: max) and the TX2 value
};

struct FalsifyResult {
    std::optional<FalsifyFinding> fixed_order, all_orders;  // smallest
    std::optional<FalsifyFinding> largest_fixed, largest_all;  // largest ratio tx2 / rta
    long long workloads = 0;  // visited
    bool complete = false;    // the whole grid was visited before the deadline
};

// Fixed order: the file order, RTA(order) against the simulator (its default SM policy). All
// orders: RTA max over orders against the TX2 WCRT by exhaustive enumeration (every launch
// order and every SM where a block fits).
FalsifyResult falsify(const FalsifyGrid& grid, std::optional<std::chrono::steady_clock::time_point> deadline);

}  // namespace gpuwcrt::rta_orders
