#pragma once
// Geometry for the Gantt chart, kept apart from the SVG text so it can be tested directly.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/schedule.hpp"

namespace gpuwcrt {

// Per block of `s.blocks` (same index): its lowest thread offset within its SM's lane such
// that blocks running at the same time on the same SM never share a thread range (a block
// ending at t frees its range for one starting at t). Blocks are packed in start order.
std::vector<std::int64_t> pack_block_offsets(const Workload& w, const Schedule& s);

// A tick step of the form {1, 2, 5} x 10^k giving at most `max_ticks` steps over `span` (> 0).
Time tick_step(const Time& span, int max_ticks);

// Drawing coordinates. Pixels are exact rationals too (no floating point anywhere), rounded
// down to 1/100 px only when printed: SVG needs decimals, the schedule keeps its exact times.
struct PixelScale {
    Time origin;    // pixel position of time 0
    Time per_unit;  // pixels per time unit
    Time x(const Time& t) const { return origin + t * per_unit; }
};
std::string px(const Time& pixels);  // "123.45"

}  // namespace gpuwcrt
