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
    std::vector<Time> block_start, block_end;    // from block_times [start0, end0, start1, …]
    std::vector<int> block_sm;                   // block_smids
    std::vector<SourceLocation> block_sm_where;  // where each SM id is written, for messages
    SourceLocation where;
};

struct ExaminerLog {
    std::string file;
    // The benchmark's label in the config, as a name the way import-examiner maps it
    // (model/name_policy.hpp: ',' -> ';', '=' -> ':'), so that it matches the imported workload.
    std::string label;
    std::vector<ExaminerKernelRecord> kernels;  // in launch order within the benchmark
    SourceLocation where;
};

ExaminerLog read_examiner_log(const std::string& text, const std::string& name);
ExaminerLog read_examiner_log_file(const std::string& path);

// The log names only SMs 0 .. sms-1 of the platform it is compared with; else an InputError at
// the first SM id that does not exist. (The platform is not known while the log is read.)
void check_block_sms(const ExaminerKernelRecord& k, int sms);

}  // namespace gpuwcrt
