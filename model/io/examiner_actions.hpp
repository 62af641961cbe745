#pragma once
// Parts of a cuda_scheduling_examiner config read beside the benchmark loop of
// examiner_config.cpp: the dimensions of a grid or block (a number or an array of 1 to 3, as
// parse_config.c's ParseDim3OrInt accepts), and the actions of a stream_action.so benchmark
// when they are all timed kernels.
#include <cstdint>
#include <string>
#include <vector>

#include "model/io/located_json.hpp"

namespace gpuwcrt {

// An integer from 1 to `max` (model/input_limits.hpp), so that products such as count x 4 bytes
// stay exact.
std::int64_t examiner_positive(const JsonValue& v, const std::string& what, std::int64_t max);

// `block_count` or `thread_count`: a positive integer, or an array of 1 to 3 positive integers
// whose product it is (CUDA's dim3). `one_dimensional` plugins (every supported one that reads
// the benchmark's dimensions: GetSingleBlockAndGridDimensions) refuse a second or third entry
// other than 1, and so does this. Each value and the product are at most `max`. An array of
// several entries is noted: the examiner's ParseDim3OrInt reads every entry as the first.
std::int64_t examiner_dimension(const JsonValue& v, const std::string& what, std::int64_t max, bool one_dimensional,
                                std::vector<std::string>& notes);

// One "kernel" action of stream_action.so (its "parameters": timer_spin, duration in ns,
// optional block_count / thread_count / shared_memory_size), after `delay` seconds of host
// sleep that follow the previous action's launch.
struct ExaminerKernelAction {
    const JsonValue* action = nullptr;
    const JsonValue* label = nullptr;
    Time delay = 0;                       // seconds
    const JsonValue* duration = nullptr;  // ns
    const JsonValue* blocks = nullptr;    // nullptr: the benchmark's block_count
    const JsonValue* threads = nullptr;   // nullptr: the benchmark's thread_count
    const JsonValue* shared = nullptr;    // shared 32-bit integers, nullptr: 0
};

struct ExaminerStreamActions {
    bool null_stream = false;  // use_null_stream
    std::vector<ExaminerKernelAction> kernels;
};

// The additional_info of a stream_action.so benchmark; InputError for an action other than a
// timer_spin kernel (memory operations and synchronisations are not a fixed set of timed
// kernels), at the action.
ExaminerStreamActions read_stream_actions(const JsonValue& info);

}  // namespace gpuwcrt
