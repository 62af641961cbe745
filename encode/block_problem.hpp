#pragma once
// The integer view of a workload that the block-level SMT encoding works on: every time
// multiplied by one common scale, resources reduced to those that can bind, demands divided
// by their common factor. Features the encoding does not cover yet are rejected here, by
// name, so that no engine silently ignores them.
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
    Time scale = 1;                       // model time = integer / scale
    std::vector<int> op;                  // problem kernel index -> operation index
    std::vector<std::int64_t> issue;      // scaled
    std::vector<std::int64_t> block_time; // scaled C
    std::vector<std::int64_t> blocks;     // g
    std::vector<int> stream_pred;         // previous kernel in the same stream, or -1
    std::vector<ScaledResource> resources;      // those that can bind: fit and greedy tests
    std::vector<ScaledResource> all_resources;  // every per-SM limit: the most-room measure
    int sms = 0;
    std::int64_t horizon = 0;             // no block starts later (greedy dispatch never idles)

    int kernels() const { return static_cast<int>(op.size()); }
    Time to_time(std::int64_t scaled) const;
    std::int64_t index_of_op(int op_index) const;  // -1 if not a kernel of the problem
    // Proven: no scenario gives kernel k a larger response (its last block starts by the
    // horizon, docs/encoding.md "Horizon"). Engines report it when they cannot decide.
    Time response_upper_bound(int k) const;
};

// Pairs (a, b), a < b, of interchangeable kernels: alone in their streams, with equal issue
// time, grid, block time and demands. Renaming them maps every scenario to one where a enters
// the EE queue before b and leaves every other kernel's response unchanged, so an encoding may
// order each pair, except for `keep_free` (the kernel whose response is the objective).
std::vector<std::pair<int, int>> interchangeable_kernels(const BlockProblem& p, std::optional<int> keep_free);

// Throws InputError naming the first unsupported feature (copies, priorities, the NULL
// stream, block-time intervals, issue windows, after_stream_idle) at its source position.
BlockProblem make_block_problem(const Workload& w);

}  // namespace gpuwcrt
