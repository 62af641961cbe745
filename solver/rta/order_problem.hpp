#pragma once
// The thesis RTA's launch-order question in integers (docs/theory/semantics.md §7): kernels with scaled release,
// scaled C and slot counts on one big SM of g_max slots, and which kernel must precede which.
// The search (solver/rta/search.hpp) ranges over the orders this describes;
// solver/rta/problem.hpp builds it from a workload.
#include <cstdint>
#include <vector>

namespace gpuwcrt {

struct RtaOrderProblem {
    std::vector<std::int64_t> release;  // scaled; an order lists kernels by non-decreasing release
    std::vector<std::int64_t> c;        // scaled block time, > 0
    std::vector<std::int64_t> slots;    // >= 1
    std::int64_t g_max = 1;
    // Kernels of one stream keep their order; it only constrains kernels of equal release.
    std::vector<int> stream;    // any id, equal for kernels of one stream
    std::vector<int> position;  // increasing along each stream
    // Every instant Algorithm 2 reaches is below this (max release + Σ slots·C), at most max_ticks
    // (model/integer_time.hpp).
    std::int64_t horizon = 0;

    int kernels() const { return static_cast<int>(c.size()); }
    // May `a` precede `b`? Earlier release, or equal release and not after b in b's stream.
    bool may_precede(int a, int b) const;
    // Must `a` precede `b` (equal release, same stream, earlier in it)?
    bool stream_before(int a, int b) const;
    // Is `order` (kernel indices) one of the orders ranged over: releases non-decreasing, and no
    // kernel after a kernel it must precede?
    bool keeps_order(const std::vector<int>& order) const;
};

}  // namespace gpuwcrt
