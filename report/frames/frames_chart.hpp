#pragma once
// The chart of a simulation over frames (docs/theory/semantics.md §9): one lane per stream, each frame
// a bar from its release (a tick) to its last operation's completion, its operations drawn
// where they run, its deadlines marked (solid red when missed), coloured by stream; under
// them the SM and copy-engine lanes of the Gantt chart (report/gantt_svg.hpp) with every block
// in its stream's colour; a legend by stream.
#include <optional>
#include <string>
#include <vector>

#include "model/frames/unroll.hpp"
#include "report/chart_context.hpp"
#include "sim/schedule.hpp"

namespace gpuwcrt {

struct FramesChart {
    const Workload& original;  // the file, with its periodic streams
    const Unrolled& u;         // its frames; `s` is a schedule of u.workload
    const Schedule& s;
    // The issue instant the scenario chose per operation of u.workload (a witness's), empty or
    // nullopt: its window's lower end, as simulated. It fixes where each frame was released.
    std::vector<std::optional<Time>> issue_at;
    // Whether to draw the SM lanes (each block): the caller leaves them out past the number of
    // blocks a chart shows.
    bool blocks = true;
};

// ctx.op, for a witness or counterexample, is an operation of u.workload (NAME#k): the
// subtitle names NAME and frame k, and the chart marks that frame's operation.
std::string frames_svg(const FramesChart& f, const ChartContext& ctx);

}  // namespace gpuwcrt
