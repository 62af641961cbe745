#pragma once
// `--engine auto`, the default of wcrt and certify (docs/verification-engines.md): the interval
// abstraction first (a proven upper bound and a replayed lower bound for every operation, fast),
// then the exact explicit-state search on what is still open (point times), then the SMT engine
// one operation at a time, all within one Budget. Per operation it keeps the
// largest replayed lower bound and the smallest proven upper bound, with the engine that gave
// each (solver/block/answer_merge.hpp); exact iff they meet.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "solver/exact/explorer.hpp"
#include "bounds/answer.hpp"
#include "common/budget.hpp"

namespace gpuwcrt {

struct AutoOptions {
    // When an operation needs no further engine: wcrt asks for exact values, certify only for
    // a verdict (upper bound ≤ deadline or replayed lower bound > deadline). Default: exact.
    std::function<bool(const WcrtAnswer&)> settled;
    std::function<void(const std::string&)> progress;  // lines for the user; may be empty
};

struct AutoResult {
    std::vector<WcrtAnswer> wcrt;     // per operation, indexed like Workload::ops
    EngineStats stats;                // scenarios, solver checks, abstract states of all engines
    std::optional<ExactStats> exact;  // when the exact engine ran
    std::vector<std::string> steps;   // what ran, one line each ("bounds: 0.31 s, 2 of 8 open")
};

// `ops`: the operations asked for (the others may be computed on the way but are not pursued).
// Throws InputError when no engine covers the workload (e.g. block-time intervals together with
// priorities): the message of the engine that would have to range over it.
AutoResult auto_wcrt(const Workload& w, const std::vector<int>& ops, const EngineOptions& o, const Budget& budget,
                     const AutoOptions& a = {});

}  // namespace gpuwcrt
