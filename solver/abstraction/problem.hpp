#pragma once
// What the interval abstraction needs of a workload, computed once: integer times, stream
// predecessors, block demands by class, and the refusal of features it does not range over.
#include <cstdint>
#include <vector>

#include "solver/integer_time.hpp"

namespace gpuwcrt::abstraction {

inline constexpr int max_operations = 128;  // an OpSet is two 64-bit words

struct Problem {
    const Workload& w;
    IntegerTimes times;
    std::vector<int> pred;          // per operation: its stream predecessor, or -1
    std::vector<int> demand_class;  // per kernel: index into class_demand (-1 for copies)
    std::vector<BlockDemand> class_demand;
    int streams = 0;

    // Throws InputError (at the operation or stream) for features the engine does not cover:
    // kernels of both priority levels (A1/A2), a NULL stream beside other busy streams (N1/N2),
    // more than max_operations operations, and times that do not fit integer ticks.
    explicit Problem(const Workload& w);
};

}  // namespace gpuwcrt::abstraction
