#pragma once
// `--engine bounds`: per operation a proven upper bound on its WCRT from the interval
// abstraction (sound over every scenario of docs/theory/semantics.md §5, block-time intervals and issue windows
// included) and a lower bound from a replayed concrete scenario; exact iff they meet.
// Refinement: while some bound is open, explore again with more abstract states per key.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bounds/abstraction/problem.hpp"
#include "bounds/answer.hpp"
#include "bounds/engine_options.hpp"
#include "bounds/engine_stats.hpp"
#include "common/budget.hpp"

namespace gpuwcrt {

struct BoundsOptions {
    int initial_states = 1;  // K of the first round (1: the fastest bound, every key one hull)
    int max_states = 256;    // refinement stops after a round with K >= this
    int growth = 4;          // K multiplies by this per round
    int partial_cap = 8;     // placement branches kept per block within one kernel's dispatch (first round)
    // Each round multiplies partial_cap by this (up to max_partial_cap): merging SM placements
    // within a kernel loses more than merging states per key (docs/theory/abstraction.md, "Merging (why it is sound)
    // and refinement").
    int partial_growth = 2;
    int max_partial_cap = 64;
    // A first round at K = initial_states with this many placements, when fewer than
    // partial_cap: its cost grows about quadratically with the placements, so it gives every
    // operation a bound where the first full round would not finish (docs/theory/abstraction.md, "Merging (why it is
    // sound) and refinement").
    int probe_partial_cap = 2;
    long lower_bound_simulations = 600;  // first phase; further ones between rounds while open
    int max_beam_width = 16;             // the lower-bound beam runs widths 1, 4, 16, … up to this
    // Refinement: false raises K for every key per round; true only for the keys with a path to
    // an edge whose response exceeds its operation's lower bound (docs/theory/abstraction.md).
    bool targeted = false;
    int targeted_depth = 0;    // levels above a loose edge that are refined too (-1: all)
    bool shift_merge = false;  // time-shift merging (translation-invariant workloads only)
    // The interference bound's completion instants clamp the exploration (docs/theory/abstraction.md,
    // "Completion caps"); off, the exploration's bounds are its own (tests that check it alone).
    bool completion_caps = true;
    std::uint64_t seed = 12;
    // Above this many operations neither the exploration nor the lower-bound search runs, only
    // the interference bound: the search keeps a replayed scenario per operation, each as large
    // as the workload, so its memory and its replays grow with the square of the operations (at
    // 1 000 operations 2 GB and a whole 30 s budget, at 4 000 18 GB), and at 400 a 2 s time limit
    // overran by 2.7 s; docs/theory/abstraction.md.
    int max_explored_operations = 256;
    // Above max_explored_operations, the interference bound gives the upper bounds; off when
    // the caller has them already (auto's chain runs it as its first link).
    bool interference_beyond = true;
    // Test-only (tests/test_abstraction_mutation.cpp): an unsound exploration, to show that the
    // differential tests fail on it. The lower bounds are unaffected (always replayed).
    abstraction::AbstractionMutation mutation = abstraction::AbstractionMutation::none;
};

struct BoundsRound;
// What the caller learns and decides while the engine runs.
struct BoundsHooks {
    std::function<void(const BoundsRound&)> on_round;  // when a round ends (a progress line as it happens)
    // After each finished round, with the answers so far: true when they settle what was
    // asked (certify: every verdict known), so that no further round is run. Empty: when
    // every operation is exact.
    std::function<bool(const std::vector<WcrtAnswer>&)> enough;
    // Where the answer may be settled by upper bounds alone (certify): the first round runs
    // after a short lower-bound search (a first witness per operation), and the full one only
    // if that round does not settle it or does not finish within three quarters of the budget.
    bool explore_first = false;
};

struct BoundsRound {
    int states_per_set = 0;
    bool complete = false;  // false: the budget ended during it; its bounds are not used
    long long states = 0, edges = 0, merges = 0;
    std::chrono::milliseconds elapsed{0};
    int open_after = 0;             // operations with UB > LB after this round
    long long refined_keys = 0;     // targeted: keys whose K the next round raises
    std::optional<Time> max_ratio;  // max over operations of UB / LB after this round (all bounded)
    int partial_cap = 0;            // placement branches kept per block in this round
};

struct BoundsResult {
    std::vector<WcrtAnswer> wcrt;  // lower bound (witness replayed), upper bound proven
    EngineStats stats;             // scenarios = simulations of the lower-bound search
    std::vector<BoundsRound> rounds;
    std::vector<std::string> steps;  // what the engine left out and why, one line each
};

// Throws InputError for workloads it does not cover (bounds/abstraction/problem.hpp). Above
// BoundsOptions::max_explored_operations operations no exploration runs (a step line says so)
// and the upper bounds are the interference bound's, with no lower bounds. Runs
// within `budget` for the whole call; std::bad_alloc gives unknown "memory limit". When no
// exploration round finishes, the upper bound is the busy-time bound (docs/theory/encoding.md) for
// workloads in the SMT engine's scope, else none. Either way the interference bound
// (bounds/interference/) replaces it where it is smaller.
// The budget's counters show the phase and the abstract states explored so far.
BoundsResult abstraction_bounds(const Workload& w, const EngineOptions& o, const Budget& budget,
                                const BoundsOptions& b = {}, const BoundsHooks& hooks = {});

}  // namespace gpuwcrt
