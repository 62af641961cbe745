#pragma once
// The exhaustive engine: every scenario of SPEC §5 (launch orders consistent with streams and
// issue times; unless a policy is fixed, every SM where each block fits) through the simulator.
// It is the reference the SMT engine is tested against and the baseline benchmarks measure.
#include <functional>
#include <vector>

#include "solver/wcrt_result.hpp"

namespace gpuwcrt {

struct EnumerationResult {
    std::vector<WcrtAnswer> wcrt;  // one per operation, indexed like Workload::ops
    EngineStats stats;
    bool complete = false;         // false: stopped by the timeout; answers are lower bounds
};

// Throws InputError for block-time intervals and issue windows (require_fixed_times).
// `progress` (optional) is called now and then with the number of scenarios done so far.
EnumerationResult enumerate_wcrt(const Workload& w, const EngineOptions& o,
                                 const std::function<void(long long)>& progress = {});

// Calls `visit` with the ranks of every launch order (SPEC §5) of the workload.
void for_each_launch_order(const Workload& w, const std::function<bool(const std::vector<long>&)>& visit);

}  // namespace gpuwcrt
