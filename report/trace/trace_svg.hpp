#pragma once
// Measured and predicted schedules one above the other, each drawn by gantt_svg().
#include <string>
#include <utility>
#include <vector>

#include "sim/schedule.hpp"

namespace gpuwcrt {

// Stacks complete SVG documents vertically inside one parent <svg>, each under its caption.
std::string stack_svgs(const std::vector<std::pair<std::string, std::string>>& captioned_charts);

std::string trace_svg(const Workload& measured_w, const Schedule& measured, const Workload& predicted_w,
                      const Schedule& predicted);

}  // namespace gpuwcrt
