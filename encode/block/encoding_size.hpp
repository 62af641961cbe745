#pragma once
// How large an encoding would be, before building it: the SMT engine declines an encoding that
// would not fit its memory budget instead of building it until the limit stops it (docs/theory/encoding.md,
// "Size before building"). Counts follow the constraint families' loops (their sizes only, no
// term is made), so they take microseconds where building takes seconds and gigabytes.
#include <cstdint>

#include "encode/block/block_problem.hpp"
#include "sim/scenario.hpp"

namespace gpuwcrt {

// The constraints TimeIndexedEncoding adds for `p` under `policy` (saturating at 2^62). The
// families whose size depends on which sums can exceed a capacity are counted as if all did:
// never below the real count by more than those few per instant.
std::uint64_t time_indexed_constraints(const BlockProblem& p, Policy policy);

// Bytes Z3 takes to hold TimeIndexedEncoding / BlockEncoding (the event encoding) for `p` under
// `policy`: a context's own, and per constraint (and, in the event encoding, per term of its
// resource sums, one per other block) the lower end of what bench/limits/smt_size.cpp measured
// (bench/RESULTS.md, "memory"), so that an encoding declined for its estimate would not have
// fitted either. Saturating.
std::uint64_t time_indexed_bytes(const BlockProblem& p, Policy policy);
std::uint64_t event_bytes(const BlockProblem& p, Policy policy);

}  // namespace gpuwcrt
