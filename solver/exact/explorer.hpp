#pragma once
// The exact explicit-state engine (`--engine exact`, docs/theory/exact-engine.md): one forward search
// over the states of docs/theory/semantics.md §4 at macro-step boundaries, level by level (level = operations
// determined), merging equal states and keeping only non-dominated ones among states equal up to
// a time shift. It gives every operation's WCRT at once, each with a witness replayed through
// the simulator before it is returned.
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "bounds/answer.hpp"
#include "bounds/engine_options.hpp"
#include "bounds/engine_stats.hpp"
#include "common/budget.hpp"
#include "common/progress.hpp"

namespace gpuwcrt {

// The shape of the search (what it keeps), not what it may spend: that is the Budget.
struct ExactSearchOptions {
    long long max_states = 0;  // stored states; 0 = no limit (the budget still applies)
    // > 0: beam mode, at most this many states per set of determined operations (the latest ones:
    // largest sum over thread slots of the instant each is free again; docs/theory/exact-engine.md);
    // answers are then lower bounds (status unknown, reason "beam") unless nothing was cut.
    int beam = 0;
    // With beam > 0: at most this many states per level as well (0 = no cap), the latest ones.
    // Needed beyond n = 16, where the sets of determined operations alone are too many.
    long long beam_level = 0;
    // Exact mode: drop states from which no open kernel can exceed the largest response found
    // for it (the drain bound, docs/theory/exact-engine.md "Pruning by bounds"; only where it is proven:
    // kernels only, one EE queue, no NULL stream). The largest responses are first seeded by a
    // beam run of `seed_beam` states per set (0: no seeding).
    bool prune = true;
    int seed_beam = 16;
    // Under mpirun: search in this process alone, not across the processes (docs/theory/distributed.md).
    bool one_process = false;
};

struct ExactResult {
    std::vector<WcrtAnswer> wcrt;  // one per operation, indexed like Workload::ops
    ExactStats stats;
    // Every state explored, nothing cut: every answer exact — or, with intervals or windows, the
    // maximum over the whole tick grid (status unknown, reason "grid": a lower bound).
    bool complete = false;
};

// Throws InputError for grids of intervals and windows beyond exact::max_grid_product, more
// blocks than the simulator replays, and times that do not fit int64 ticks; ReplayMismatch if a witness does not replay
// (a bug). `budget` covers the whole call; std::bad_alloc ends the search with status unknown "memory limit" and the
// lower bounds found so far. `progress`: a line now and then ("level 4/10, 12345 states, 3.2 s").
// `stored`: called once by the seeding beam run and once by the search when its stored states
// reach the signal's count (the count the progress lines show).
// Started by mpirun with more than one process (docs/theory/distributed.md), the search runs across
// them and gives the same answers and witnesses; `budget`'s memory is then each process's.
ExactResult exact_wcrt(const Workload& w, const EngineOptions& o, const Budget& budget,
                       const ExactSearchOptions& options = {}, const ProgressSink& progress = {},
                       const StatesSignal& stored = {});

}  // namespace gpuwcrt
