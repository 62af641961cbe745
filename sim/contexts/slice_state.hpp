#pragma once
// The compute engine's time slices between GPU contexts (docs/theory/semantics.md §10): which
// context holds the engine, the switch under way, and what each context keeps while it does
// not run. Unused (`on` false) without two or more contexts.
#include <array>
#include <deque>
#include <map>
#include <optional>
#include <vector>

#include "model/time_less.hpp"
#include "model/workload.hpp"

namespace gpuwcrt {

struct RunningBlock {
    int kernel;
    int sm;
    std::int64_t record = -1;  // index into Schedule::blocks, -1 when blocks are not kept
};

// Running blocks by end time, those ending together in dispatch order.
using EndingBlocks = std::map<Time, std::vector<RunningBlock>, TimeLess>;

// What a context that does not hold the compute engine keeps: its blocks, stopped with their
// remaining times (in the same order), and its SMs' occupancy and round-robin pointer, as its
// blocks still hold their room when it runs again.
struct FrozenContext {
    std::vector<std::pair<Time, std::vector<RunningBlock>>> blocks;  // (remaining time, blocks)
    std::vector<SmUsage> sm;
    int round_robin_last = -1;
    Time stopped = 0;  // when it lost the engine
};

struct SliceState {
    bool on = false;
    int running = -1;       // the context holding the compute engine, -1 when none
    int switching_to = -1;  // the context a switch under way gives the engine to
    int last = -1;          // the context that held it last, -1 before any
    Time held_since = 0;    // when the running context got the engine
    Time slice_start = 0;   // of its current slice (later than held_since after a slice renewed)
    Time switch_start = 0, switch_end = 0;
    std::vector<long> pending;  // per context: kernels issued and not completed
    std::vector<FrozenContext> frozen;

    // The context whose kernels may dispatch blocks now: 0 without slices, -1 when none.
    int dispatching() const { return on ? running : 0; }
};

}  // namespace gpuwcrt
