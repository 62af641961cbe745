#pragma once
// The documented maxima of every number read from input (docs/reference/input-format.md,
// docs/decisions/0012-input-limits-and-names.md "Input limits"). They are far above any real GPU, and low enough that
// every product and sum the model forms from them fits in 64 bits, so no value is ever wrapped or truncated.
#include <cstddef>
#include <cstdint>

namespace gpuwcrt::limits {

constexpr std::int64_t max_sms = 1024;
constexpr std::int64_t max_copy_engines = 64;
// Every per-SM and per-block platform limit, and a kernel's threads, shared_mem and registers.
constexpr std::int64_t max_resource = std::int64_t{1} << 40;
constexpr std::int64_t max_blocks = std::int64_t{1} << 40;  // blocks of one kernel
// Over the whole workload: blocks, and blocks x per-block threads / shared memory / registers.
constexpr std::int64_t max_total = std::int64_t{1} << 62;
// Decimal time literals ("1.5", "2.5e-3", "3/2"): digits per number and exponent magnitude.
constexpr std::size_t max_time_digits = 1000;
constexpr long max_time_exponent = 1000;
// Frames of one periodic or sporadic stream in one simulation (--frames, --until, [[expect]]
// frames), and operations of the unrolled workload: each frame is a copy of its stream's operations.
constexpr std::int64_t max_frames = 100'000;
constexpr std::int64_t max_unrolled_operations = 1'000'000;
constexpr std::size_t max_input_bytes = std::size_t{1} << 30;  // one input file (1 GiB)
// A name (model/name_policy.hpp), in bytes: tables pad and wrap every name, and the search keys
// its states by them, so that a megabyte name costs gigabytes of output and minutes of search.
constexpr std::size_t max_name_bytes = 1024;
// Tables within tables in a TOML input, whether by [a.b] headers, dotted keys (a.b.c = 1),
// inline tables or arrays: a workload needs four; reading a deeper document recursed without end.
constexpr int max_toml_depth = 32;

}  // namespace gpuwcrt::limits
