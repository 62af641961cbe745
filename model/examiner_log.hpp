#pragma once
// cuda_scheduling_examiner per-benchmark result logs: what the GPU really did. Times are read
// exactly from the JSON text (seconds, on the examiner's common CPU-time axis).
#include <string>
#include <vector>

#include "model/source_location.hpp"
#include "model/time.hpp"

namespace gpuwcrt {

struct ExaminerKernelRecord {
    std::string kernel_name;
    std::int64_t block_count = 0, thread_count = 0, shared_memory = 0;
    // cuda_launch_times: before the launch call, after it returned, after the stream sync.
    Time launch_before, launch_after, launch_synced;
    std::vector<Time> block_start, block_end;  // from block_times [start0, end0, start1, …]
    std::vector<int> block_sm;                 // block_smids
    SourceLocation where;
};

struct ExaminerLog {
    std::string file;
    std::string label;  // the benchmark's label in the config
    std::vector<ExaminerKernelRecord> kernels;  // in launch order within the benchmark
    SourceLocation where;
};

ExaminerLog read_examiner_log(const std::string& text, const std::string& name);
ExaminerLog read_examiner_log_file(const std::string& path);

}  // namespace gpuwcrt
