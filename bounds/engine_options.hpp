#pragma once
// How an engine is asked to search (solver/engine.hpp): the scheduling policy, the SMT
// encoding, the worker threads. What it may spend is the Budget's (common/budget.hpp), not
// these options'.
#include "sim/scenario.hpp"

namespace gpuwcrt {

// Which SMT encoding (docs/theory/encoding.md): both are exact; they differ in speed.
enum class EncodingChoice { automatic, event, time_indexed };

struct EngineOptions {
    Policy policy = Policy::chooser;  // chooser = any SM where the block fits (docs/theory/semantics.md §5)
    EncodingChoice encoding = EncodingChoice::automatic;
    bool symmetry_breaking = true;
    // Simulations spent on the SMT engine's first incumbent (sim/search/incumbent.hpp):
    // -1 = 100 per operation; 0 = one scenario (the operation launched last, the others in
    // file order), so that the solver itself must find every improvement (tests use it).
    long incumbent_simulations = -1;
    // Worker threads of the exact engine's level expansion (solver/exact/); 0 = the default
    // (worker_threads, solver/exact/level_search.hpp). Answers do not depend on it.
    int threads = 0;
};

}  // namespace gpuwcrt
