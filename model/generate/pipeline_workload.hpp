#pragma once
// Seeded pipeline workloads, the shape of a real perception/control application: several
// streams, each a loop of iterations "copy in, two kernels, copy out", released periodically,
// one stream at high priority, kernels of a few types shared between streams. A benchmark
// family (bench/README.md); also usable in tests at small sizes.
#include <cstdint>

#include "model/workload.hpp"

namespace gpuwcrt {

struct PipelineSpec {
    int streams = 4;              // stream s1 is high priority when high_priority
    int iterations = 4;           // per stream; 4 operations per iteration
    int kernel_types = 4;         // grid size, block size and block time drawn once per type
    std::int64_t max_blocks = 8;  // per kernel type, uniform in 1..max_blocks
    std::int64_t period = 8;      // iteration i of every stream is issued at i · period
    bool copies = true;           // without copies an iteration is just its two kernels
    bool high_priority = true;
};

Workload pipeline_workload(const PipelineSpec& spec, std::uint64_t seed);

}  // namespace gpuwcrt
