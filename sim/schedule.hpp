#pragma once
#include <vector>

#include "model/workload.hpp"

namespace gpuwcrt {

struct OpTiming {
    Time issue, start, finish;
    long launch_seq = -1;  // position in the realised launch order
    int engine = -1;       // copies: the copy engine used
};

struct BlockTiming {
    int kernel = 0;
    std::int64_t index = 0;
    int sm = 0;
    Time start, end;
};

// An interval during which one GPU context held the compute engine, or (in
// Schedule::switches) the switch that gave it the engine (docs/theory/semantics.md §10).
struct ContextSlice {
    int context = 0;
    Time start, end;
};

struct Schedule {
    std::vector<OpTiming> ops;        // indexed like Workload::ops
    std::vector<BlockTiming> blocks;  // in dispatch order (empty when simulated with BlockRecord::dropped)
    std::vector<int> launch_order;    // operation indices in the order they were issued
    // With two or more contexts: when each held the compute engine, and the switches between.
    // A block of a context ran during the parts of [start, end] its context held the engine.
    std::vector<ContextSlice> slices, switches;

    Time response(int op) const { return time_difference(ops[op].finish, ops[op].issue); }
};

}  // namespace gpuwcrt
