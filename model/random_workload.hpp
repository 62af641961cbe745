#pragma once
// Seeded random workloads for differential tests and benchmarks (documented in bench/README.md).
#include <cstdint>
#include <vector>

#include "model/workload.hpp"

namespace gpuwcrt {

struct RandomWorkloadSpec {
    int kernels = 4;
    int streams = 4;                        // kernels are dealt to streams round-robin
    std::vector<std::int64_t> threads = {128, 256, 512, 768, 1024};
    std::vector<std::int64_t> shared_kib = {0};  // per block, KiB
    std::int64_t max_blocks = 6;            // g uniform in 1..max_blocks
    std::int64_t max_block_time = 6;        // C uniform in 1..max (numerator)
    std::int64_t block_time_denominator = 1;  // C = numerator / this
    bool staggered_issue = false;           // issue times uniform in {0, 1/2, 1, …, 2}, else all 0
    bool deadlines = false;                 // deadline = sum of all g*C / 4, at least max C
};

Workload random_workload(const RandomWorkloadSpec& spec, std::uint64_t seed);

}  // namespace gpuwcrt
