#pragma once
#include <string>

#include "report/chart_context.hpp"
#include "sim/schedule.hpp"

namespace gpuwcrt {

// An SVG Gantt chart in the style of the RTSS'17 figures: one lane per SM (block rectangles,
// width = duration, height = threads, labelled "K:j"), a CE lane for copies, launch arrows
// under the time axis, a legend. When most blocks are too small to carry their label, each
// kernel is drawn as one band per SM instead (first block start to last block end, block count
// in its tooltip). No label overlaps another or leaves the canvas: one that does not fit is
// shortened or left to the tooltip. A witness or counterexample chart marks its operation
// (a bracket from issue to completion, the deadline or bound as a dashed line) and says so
// under the title.
std::string gantt_svg(const Workload& w, const Schedule& s, const ChartContext& ctx);
inline std::string gantt_svg(const Workload& w, const Schedule& s) { return gantt_svg(w, s, schedule_chart(w)); }

// Text or attribute value escaped for XML (&, <, >, ", ').
std::string xml_escape(const std::string& s);

}  // namespace gpuwcrt
