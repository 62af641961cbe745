#pragma once
// What an engine counts while it searches (reports show it beside the answers, solver/engine.hpp
// says how): simulations, solver checks, abstract states, and the exact engine's search.
#include <chrono>
#include <optional>
#include <vector>

namespace gpuwcrt {

// The exact engine's search (solver/exact/, docs/theory/exact-engine.md).
struct ExactStats {
    long long states = 0;                       // stored (distinct, not dominated when stored)
    long long expansions = 0;                   // states expanded
    long long steps = 0;                        // macro steps run (one per branch)
    long long dominated = 0;                    // states dropped or retired by dominance or equality
    long long beam_cut = 0;                     // states dropped by the beam
    long long pruned = 0;                       // states dropped by the drain bound (not expanded or not stored)
    std::chrono::milliseconds seed_elapsed{0};  // the seeding beam run's share of `elapsed`
    int levels = 0;                             // levels completed
    long long peak_level_states = 0;            // most states stored at one level
    // States stored at each level, from level 0, up to the last one reached (the growth from level to
    // level is what docs/theory/distributed.md projects larger searches with).
    std::vector<long long> level_states;
    int threads = 1;  // worker threads used (EngineOptions::threads), per process
    std::chrono::milliseconds elapsed{0};
    // Across processes (docs/theory/distributed.md): how many, the bytes they sent each other in all and
    // in each level, and each one's peak resident memory (KiB, getrusage).
    int processes = 1;
    long long bytes_exchanged = 0;
    std::vector<long long> level_bytes, process_peak_rss_kib;
};

struct EngineStats {
    std::chrono::milliseconds elapsed{0};
    long long scenarios = 0;          // enumeration: scenarios simulated
    long long solver_calls = 0;       // SMT: checks
    long long abstract_states = 0;    // bounds: abstract states explored, every round
    std::optional<ExactStats> exact;  // when the exact engine ran
};

}  // namespace gpuwcrt
