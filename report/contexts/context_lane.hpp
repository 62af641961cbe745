#pragma once
// The Gantt chart's lane of the compute engine under time slices (docs/theory/semantics.md §10).
#include "report/gantt_canvas.hpp"

namespace gpuwcrt::gantt {

// With two or more GPU contexts, a lane above the SMs showing which context holds the compute
// engine when (a band per slice, named after its context) and the switches between (grey);
// nothing otherwise. Returns the y below it.
Time draw_context_lane(Chart& ch, Time y);

}  // namespace gpuwcrt::gantt
