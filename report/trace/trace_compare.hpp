#pragma once
// Prediction vs measurement: replays a workload with the launch instants measured by
// cuda_scheduling_examiner and compares the simulated schedule with the logged one.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "model/io/examiner_log.hpp"
#include "report/json.hpp"
#include "sim/schedule.hpp"

namespace gpuwcrt {

// Which of the logged launch instants becomes the simulated issue time. The kernel enters its
// stream queue somewhere inside the launch call, i.e. in [before, after].
enum class LaunchInstant { before, after };

struct TraceCompareOptions {
    std::optional<std::string> policy;  // SM placement; default: the workload's, else most-room
    LaunchInstant instant = LaunchInstant::after;
};

struct KernelComparison {
    int op = 0;  // index into TraceComparison::workload.ops
    std::string log_file;
    Time launch_before, launch_after;  // relative to the origin
    Time issue;                        // the simulated issue time
    Time measured_start, measured_finish, predicted_start, predicted_finish;
    Time max_start_deviation, max_end_deviation;  // |measured - predicted| over blocks by index
    std::int64_t blocks = 0, sm_matches = 0;      // under TraceComparison::sm_renaming
};

struct TraceComparison {
    Time origin;  // the earliest "before launch" time of all logs, on the logs' clock
    std::string policy;
    LaunchInstant instant = LaunchInstant::after;
    Workload workload;  // the input with measured issue times
    Schedule predicted;
    Workload measured_workload;  // the kernels that have a log (for drawing)
    Schedule measured;
    std::vector<int> sm_renaming;           // simulator SM -> hardware SM id, the best-matching renaming
    std::vector<KernelComparison> kernels;  // in measured launch order
};

// Aligns each log with the workload by its label: a kernel of that name (single-kernel
// benchmarks) or the kernels of a stream of that name in order (multikernel.so). Every kernel
// of the workload needs a log; copies keep their issue rule relative to their stream.
TraceComparison compare_trace(const Workload& w, const std::vector<ExaminerLog>& logs,
                              const TraceCompareOptions& options);

Json trace_comparison_json(const TraceComparison& c);
void print_trace_comparison(std::ostream& out, const TraceComparison& c);

}  // namespace gpuwcrt
