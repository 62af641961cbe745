#pragma once
// The falsifier: the smallest workload of a stated parameter grid where the thesis
// RTA under-estimates the TX2, per scope reason, by systematic enumeration in increasing size.
// "Smallest": workloads are visited by total number of blocks, then number of kernels, then
// the grid's order; every workload visited before the reported one was checked and is safe.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "common/budget.hpp"
#include "model/workload.hpp"

namespace gpuwcrt::rta_orders {

struct FalsifyGrid {
    std::string reason;                    // the scope reason the grid isolates
    std::string platform_toml;             // [platform] lines (TX2 defaults otherwise)
    std::vector<std::int64_t> threads;     // block sizes drawn per kernel
    std::vector<std::int64_t> shared_mem;  // bytes per block
    std::vector<std::int64_t> registers;   // per thread
    std::vector<std::int64_t> block_time;  // C
    int max_kernels = 3;                   // operations; one stream each unless a variant says
    int max_blocks = 4;                    // per kernel
    // When not empty, replaces the product of the four lists above: each operation is one of
    // these TOML bodies (without name and blocks; "{i}" stands for the operation's number; a
    // body starting with "copy\n" is a [[copy]] of the lines after it, one "block").
    std::vector<std::string> variants;
    std::string streams_toml;  // [[stream]] tables the variants refer to
    // When not empty: a workload with an RTA scope reason (bounds/rta/rta_scope.hpp) that contains
    // none of these is outside the grid (skipped, counted apart), so the grid isolates `reason`.
    std::vector<std::string> only_reasons;
    std::string description;  // the grid in words, when `variants` is used
};

// The grids `rta-falsify` knows, by reason name (mixed-block-sizes, non-dividing-block-size,
// shared-memory, registers, resident-blocks, several-operations-per-stream, priorities,
// null-stream, copies, block-time-intervals, issue-windows).
std::vector<FalsifyGrid> falsify_grids();

struct FalsifyFinding {
    // The workload; for block-time intervals and issue windows with a [scenario] giving the
    // issue instants and block times of the replayed TX2 schedule (and, all orders, its launch
    // order and SMs), so that `gpuwcrt simulate` reproduces the TX2 value.
    std::string toml;
    std::string kernel;  // the kernel under-estimated
    Time rta, tx2;       // responses: RTA (fixed order: RTA(order); all orders: max) and TX2
};

struct FalsifyResult {
    std::optional<FalsifyFinding> fixed_order, all_orders;     // smallest
    std::optional<FalsifyFinding> largest_fixed, largest_all;  // largest ratio tx2 / rta
    long long workloads = 0;                                   // visited and checked
    long long outside = 0;  // visited but outside the grid (another scope reason, or no workload)
    bool complete = false;  // the whole grid was visited before the deadline
};

// Fixed order: the file order, RTA(order) against the simulator (its default SM policy). All
// orders: RTA max over orders against the TX2 WCRT by exhaustive enumeration (every launch
// order and every SM where a block fits). With block-time intervals or issue windows the RTA
// uses the interval's upper end and the window's lower end (bounds/rta/rta_workload.hpp); the TX2
// side is the worst of the replayed scenarios with every such operation at either end of its
// range (each a real TX2 schedule, so a lower bound on the TX2's worst case over the ranges).
FalsifyResult falsify(const FalsifyGrid& grid, const Budget& budget);

}  // namespace gpuwcrt::rta_orders
