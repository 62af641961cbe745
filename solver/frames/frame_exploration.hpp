#pragma once
// The exact worst response of every frame, for all time, of periodic streams with fixed times:
// the exact engine's states explored over a window of a few hyperperiods, the window moved one
// hyperperiod on whenever its first hyperperiod's frames have all completed, until every state
// so reached has been seen before (docs/theory/all-time.md, "Frames explored to a fixed point"). It
// needs no idle instant and no slack in a bound: a backlog that settles into a cycle, with or
// without `wait`, is covered exactly.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/budget.hpp"
#include "model/time.hpp"
#include "model/workload.hpp"

namespace gpuwcrt {

struct FrameExplorationOptions {
    int max_window = 4;                // hyperperiods in the window: 2, 3, … this, tried in turn
    long long max_states = 2'000'000;  // distinct states stored, over every window tried
    // Test-only: the window moved on without carrying the unfinished frames over (they vanish),
    // so that a test can show the differential tests catch an exploration that drops a backlog.
    bool drop_carry_over = false;
};

struct FrameExploration {
    std::vector<std::optional<Time>> worst;  // per operation of the workload: its largest response over every frame
    int window = 0;                          // hyperperiods in the window that closed
    long long states = 0;
};

// nullopt with `why` when the workload is out of scope (a stream that runs once or is sporadic,
// an offset at or beyond its period, jitter, a block-time interval or issue window, the NULL
// stream, after_stream_idle), when frames carry over beyond every window tried, or when the
// states or the budget run out.
std::optional<FrameExploration> explore_frames(const Workload& w, const Budget& budget, std::string& why,
                                               const FrameExplorationOptions& o = {});

}  // namespace gpuwcrt
