#pragma once
#include <string>

#include "sim/schedule.hpp"

namespace gpuwcrt {

// An SVG Gantt chart in the style of the RTSS'17 figures: one lane per SM (block rectangles,
// width = duration, height = threads, labelled "K:j"), a CE lane for copies, launch arrows
// under the time axis.
std::string gantt_svg(const Workload& w, const Schedule& s);

// Text or attribute value escaped for XML (&, <, >, ", ').
std::string xml_escape(const std::string& s);

}  // namespace gpuwcrt
