#pragma once
// The SMT engine: maximise an operation's response time over all scenarios, or certify a
// bound, with the block-level encoding (encode/block_encoding.hpp). Every model found is
// turned into a witness scenario and replayed through the simulator before it is used.
#include "encode/block_problem.hpp"
#include "solver/wcrt_result.hpp"

namespace gpuwcrt {

// Exact WCRT of `op` (status exact), or on timeout the best replayed response found (unknown).
WcrtAnswer smt_maximise(const Workload& w, const BlockProblem& p, int op, const EngineOptions& o,
                        EngineStats& stats);

// Certified when no scenario gives a response > bound, refuted with a replayed counterexample.
CertifyAnswer smt_certify(const Workload& w, const BlockProblem& p, int op, const Time& bound,
                          const EngineOptions& o, EngineStats& stats);

}  // namespace gpuwcrt
