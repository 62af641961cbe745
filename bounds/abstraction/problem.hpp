#pragma once
// What the interval abstraction needs of a workload, computed once: integer times, stream
// predecessors, block demands by class, and the refusal of features it does not range over.
#include <cstdint>
#include <vector>

#include "model/integer_time.hpp"

namespace gpuwcrt::abstraction {

inline constexpr std::int64_t max_units = 4096;  // per resource and SM (see SmState)

// Test-only: removes one soundness ingredient of the exploration, so that a test can show the
// differential tests against enumeration catch an unsound abstraction.
// Never set outside tests/test_abstraction_mutation.cpp.
enum class AbstractionMutation {
    none,
    drop_time_low,  // every block time and copy duration [lo, hi] taken as [hi, hi]
    one_sm,       // a block goes only to the first SM where it may fit, not to every one (docs/theory/semantics.md §5)
    fifo_strict,  // a candidate joining at the same instant as another is not also tried first
};

// One per-SM resource that some kernel needs (threads, shared memory, registers, resident
// blocks), cut into units of the GCD of every kernel's per-block demand: a block of kernel k
// takes need[k] units, and fits iff need[k] units are free (exact: the sums are multiples of
// the unit, so "sum + demand <= cap" is "used units + need <= cap / unit").
struct Resource {
    std::int64_t unit = 1;
    int units = 0;          // floor(per-SM cap / unit)
    int offset = 0;         // where its units start in SmState's vectors
    std::vector<int> need;  // per operation (0 for copies)
};

struct Problem {
    const Workload& w;
    IntegerTimes times;
    std::vector<int> pred;  // per operation: its stream predecessor, or -1
    std::vector<int> next;  // per operation: its stream successor, or -1
    std::vector<Resource> resources;
    int total_units = 0;
    int streams = 0;
    int null_stream = -1;     // Workload::null_stream(): N1/N2 apply when >= 0
    std::vector<char> high;   // per operation: its stream is high priority (A1)
    bool two_queues = false;  // kernels of both priority levels: a high kernel can interrupt a low one's dispatch (A2)
    AbstractionMutation mutation = AbstractionMutation::none;  // tests only
    // Every issue instant the future can see is 0 (every `at` issue, and the first issue of every
    // stream, is [0, 0]) and there is no NULL stream: a state's future then only compares times
    // with each other and with 0, so shifting a state later shifts its future (time-shift merging).
    bool translation_invariant = false;
    // Per operation: a proven upper bound on its completion instant in every scenario (the
    // interference bound's, set by the caller; `never` when none). No concrete run exceeds it,
    // so an abstract completion is clamped to it and an edge that cannot meet it is dropped
    // (docs/theory/abstraction.md, "Completion caps").
    std::vector<std::int64_t> done_cap;

    // Throws InputError (at the operation or workload) for what the engine does not cover:
    // times that do not fit integer ticks, and demands whose GCD cuts an SM into more than
    // max_units units.
    explicit Problem(const Workload& w);
};

}  // namespace gpuwcrt::abstraction
