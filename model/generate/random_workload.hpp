#pragma once
// Seeded random workloads for differential tests and benchmarks (documented in bench/README.md).
// Every feature is off by default; a feature that is off draws no random number, so the
// workloads of older specs (and the tests and benchmarks built on them) stay the same.
#include <cstdint>
#include <vector>

#include "model/workload.hpp"

namespace gpuwcrt {

struct RandomWorkloadSpec {
    int kernels = 4;  // operations in all (kernels and copies)
    int streams = 4;  // operations are dealt to streams round-robin
    std::vector<std::int64_t> threads = {128, 256, 512, 768, 1024};
    std::vector<std::int64_t> shared_kib = {0};  // per block, KiB
    std::int64_t max_blocks = 6;                 // g uniform in 1..max_blocks
    std::int64_t max_block_time = 6;             // C uniform in 1..max (numerator)
    std::int64_t block_time_denominator = 1;     // C = numerator / this
    bool staggered_issue = false;                // issue times uniform in {0, 1/2, 1, …, 2}, else all 0
    bool deadlines = false;                      // deadline = sum of all g*C / 4, at least max C

    // Features for differential tests of the verification engines (all off by default).
    int sms = 2;  // platform
    int copy_engines = 1;
    std::vector<std::int64_t> registers = {0};  // per thread, drawn per kernel when > 1 choice
    int copy_percent = 0;                       // chance that an operation is a copy (duration 1..max/den)
    int high_priority_streams = 0;              // the first N streams are high priority (A1/A2)
    bool null_stream = false;                   // the last stream is the NULL stream (N1/N2)
    int interval_percent = 0;                   // chance of block_time/duration = [C, C + 1..2 units]
    int window_percent = 0;                     // chance of issue = [t, t + 1/2..1] (staggered or 0)
    int after_idle_percent = 0;                 // chance (not first in stream) of after_stream_idle,
                                                // delay in {0, 1/2}
    // Chance (first in stream too) of after_stream_idle with delay 0 or 1; the stream's next
    // operation is then issued with it or at the stream's previous absolute issue: an instant
    // the host reaches only when the run gets there (docs/theory/semantics.md §3), which can tie with
    // other streams' issues (§5). Staggered issues are then integers 0..3, where completions
    // and other streams' issues meet more often.
    int idle_tie_percent = 0;
};

Workload random_workload(const RandomWorkloadSpec& spec, std::uint64_t seed);

}  // namespace gpuwcrt
