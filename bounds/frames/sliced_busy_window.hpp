#pragma once
// Bounds for every frame, for all time, of a workload whose GPU contexts are time-sliced: a busy
// window of each context in real time, its frames' costs in its own running time plus the gaps
// in which it waits, pending, for the other contexts' slices and the switches
// (docs/theory/all-time.md, "Time-sliced contexts").
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/workload.hpp"

namespace gpuwcrt {

// Test-only: the argument broken on purpose, so that the tests show they catch each part.
enum class SlicedMutation {
    none,
    no_gaps,        // the other contexts' slices ignored: no gap at all
    no_switch,      // a gap without the switches' cost
    no_issue_gaps,  // no gap as a context becomes pending, only after its full slices
};

struct ContextWindow {
    int context = 0;
    std::string name;
    Time gap = 0;     // D_c: the longest a pending context waits for the GPU
    Time length = 0;  // X_c: every busy period of the context ends within it
};

struct SlicedBusyWindowBounds {
    std::vector<ContextWindow> windows;      // the contexts whose busy periods are proven to end
    std::vector<std::optional<Time>> upper;  // per operation of w: a bound on every frame's response
};

// D_c = Σ_{j≠c} (L_j + θ) + θ over the other contexts that have a kernel.
Time context_gap(const Workload& w, int context, SlicedMutation m = SlicedMutation::none);

// Every operation of a context whose busy window closes bounded by it; nullopt with `why` when
// no context's does (a `wait`, the NULL stream, or each context's load with its gaps at 1 or
// more); `why` names the first context left unbounded otherwise.
std::optional<SlicedBusyWindowBounds> sliced_busy_window_bounds(const Workload& w, std::string& why,
                                                                SlicedMutation m = SlicedMutation::none);

}  // namespace gpuwcrt
