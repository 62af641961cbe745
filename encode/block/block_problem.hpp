#pragma once
// The integer view of a workload that the block-level SMT encoding works on: every time
// multiplied by one common scale, resources reduced to those that can bind, demands divided
// by their common factor. Block-time intervals and issue windows are kept as ranges on the same
// integer grid (1/scale): the time-indexed encoding chooses every duration and issue instant on
// it (docs/theory/encoding.md, "Intervals and windows: the grid").
#include <cstdint>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "model/workload.hpp"

namespace gpuwcrt {

struct ScaledResource {
    std::string name;                  // "threads", "shared memory", "registers", "resident blocks"
    std::int64_t capacity = 0;         // per SM, divided by the common factor
    std::vector<std::int64_t> demand;  // per kernel (problem index), divided likewise
};

struct BlockProblem {
    const Workload* workload = nullptr;
    Time scale = 1;                             // model time = integer / scale
    std::vector<int> op;                        // problem kernel index -> operation index
    std::vector<std::int64_t> issue;            // scaled
    std::vector<std::int64_t> block_time;       // scaled C
    std::vector<std::int64_t> blocks;           // g
    std::vector<int> stream_pred;               // previous kernel in the same stream, or -1
    std::vector<ScaledResource> resources;      // those that can bind: fit and greedy tests
    std::vector<ScaledResource> all_resources;  // every per-SM limit: the most-room measure
    int sms = 0;
    std::int64_t horizon = 0;  // no block starts later (greedy dispatch never idles)

    // Every operation, kernels and copies, indexed like Workload::ops (docs/theory/semantics.md §4: streams, the
    // NULL stream, copies and after_stream_idle act on operations, not only on kernels).
    enum class IssueRule { at, with_previous, after_idle };
    std::vector<int> kernel_of_op;  // problem kernel index, or -1 for a copy
    std::vector<int> op_pred;       // previous operation in the stream, or -1
    std::vector<IssueRule> issue_rule;
    std::vector<std::int64_t> issue_value;  // scaled: the instant (at, with_previous first) or the delay
    std::vector<std::int64_t> issue_lb;     // scaled: earliest possible issue instant
    std::vector<char> issue_fixed;          // the issue instant is issue_lb in every scenario
    std::vector<std::int64_t> duration;     // scaled: block time of a kernel, duration of a copy (upper end)
    std::vector<std::int64_t> duration_lo;  // scaled: lower end of that interval (= duration: a point)
    std::vector<std::int64_t> issue_hi;     // scaled, IssueRule::at: upper end of the window (= issue_value: a point)
    std::vector<char> in_null;              // belongs to the NULL stream
    std::vector<char> high;                 // per kernel: its stream has high priority (A1)
    int copy_engines = 1;
    bool has_null = false, has_priorities = false, has_copies = false, has_after_idle = false;
    bool has_intervals = false, has_windows = false;  // some lo < hi: the engine ranges over the grid
    // Any of these: the encoding takes the operation-level families (docs/theory/encoding.md).
    bool extended() const {
        return has_null || has_priorities || has_copies || has_after_idle || has_intervals || has_windows;
    }
    bool has_ranges() const { return has_intervals || has_windows; }
    // Every duration and issue instant an engine chooses is a multiple of this (1/scale).
    Time grid() const { return Time(1) / scale; }
    bool duration_varies(int o) const { return duration_lo[o] < duration[o]; }
    int ops() const { return static_cast<int>(kernel_of_op.size()); }

    int kernels() const { return static_cast<int>(op.size()); }
    Time to_time(std::int64_t scaled) const;
    std::int64_t index_of_op(int op_index) const;  // -1 if not a kernel of the problem
    // Proven: no scenario gives kernel k a larger response (its last block starts by the
    // horizon, docs/theory/encoding.md "Horizon"). Engines report it when they cannot decide.
    Time response_upper_bound(int k) const;
    Time op_response_upper_bound(int op) const;  // the same for any operation, copies too
};

// Pairs (a, b), a < b, of interchangeable kernels: alone in their streams, with equal issue
// time, grid, block time and demands. Renaming them maps every scenario to one where a enters
// the EE queue before b and leaves every other kernel's response unchanged, so an encoding may
// order each pair, except for `keep_free` (the kernel whose response is the objective).
std::vector<std::pair<int, int>> interchangeable_kernels(const BlockProblem& p, std::optional<int> keep_free);

// Throws InputError when a value does not fit the integer view (see checked() and the
// pseudo-Boolean coefficient limit).
BlockProblem make_block_problem(const Workload& w);

}  // namespace gpuwcrt
