#pragma once
// The workload as the exact engine reads it (docs/theory/exact-engine.md): every time in int64 ticks
// (model/integer_time.hpp), block demands as a few classes, and which queue each operation
// joins. Built once per run; the states refer to operations and classes by index.
#include <cstdint>
#include <vector>

#include "sim/scenario.hpp"
#include "model/integer_time.hpp"

namespace gpuwcrt::exact {

inline constexpr int ee_high = 0, ee_low = 1, ce = 2;  // the three queues of docs/theory/semantics.md §4 (A1, C1)

struct Problem {
    const Workload* w = nullptr;
    IntegerTimes times;
    Policy policy = Policy::chooser;
    int n = 0;
    int copy_engines = 1;
    int null_stream = -1;
    // With a NULL stream, N1/N2 compare launch positions of stream heads at any time, so the
    // launch order is decided when operations are issued (eager); without one it is decided
    // only where a queue observes it (lazy). docs/theory/exact-engine.md, "Launch order".
    bool eager = false;
    std::vector<int> stream, next_in_stream, queue, demand_class;
    std::vector<char> kernel;
    std::vector<std::int64_t> blocks, duration;  // duration: block time C, or a copy's duration (upper end)
    std::vector<std::int64_t> duration_lo;       // its lower end (= duration without an interval)
    // Some block-time/duration interval or issue window: the engine ranges over every value of
    // the tick grid in it, and its answers are lower bounds (docs/theory/exact-engine.md, "Intervals").
    bool ranges = false;
    std::vector<BlockDemand> classes;  // distinct block demands
    std::vector<int> first_ops;        // the first operation of every stream
    // W1: per operation, the operations it waits on.
    std::vector<std::vector<int>> waits;
    // Per operation: whether anything but a stream successor observes its completion (an
    // operation waiting on it; a later frame, solver/frames/frame_exploration.cpp), so that it is
    // never completed before its instant.
    std::vector<char> completion_observed;
    // False when the threads limit alone keeps every SM below blocks_per_sm_max resident blocks
    // (threads_per_sm / smallest block ≤ blocks_per_sm_max): then the count never decides a fit
    // nor SmUsage::room_for (its term is never the smallest), and states need not record it.
    bool count_binds = true;
};

// Throws InputError for what the engine does not range over (see require_exact_scope) and
// for times that do not fit int64 ticks.
Problem make_problem(const Workload& w, Policy policy);

// The largest grid the engine ranges over: the product over operations of the tick values of
// every block's time (values^blocks), every copy's duration and every issue window.
inline constexpr std::int64_t max_grid_product = std::int64_t(1) << 20;

// What the explicit search cannot replay (more blocks than the simulator takes), and grids of
// intervals and windows beyond max_grid_product: InputError at the operation.
void require_exact_scope(const Workload& w, const IntegerTimes& t);

}  // namespace gpuwcrt::exact
