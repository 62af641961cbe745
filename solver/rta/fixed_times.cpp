#include "solver/rta/fixed_times.hpp"

namespace gpuwcrt {
namespace {

std::string interval_text(const TimeRange& r) {
    std::string s = "[";  // appended piecewise: GCC 12 warns (-Wrestrict) on "[" + string
    s += human_string(r.lo);
    s += ", ";
    s += human_string(r.hi);
    return s + "]";
}

std::string cannot(const std::string& what) {
    return "rta-check compares the RTA with the exact WCRT, which over " + what +
           " is only bounded (a maximum on a grid, scheduling anomalies between its points; docs/theory/encoding.md); "
           "use 'gpuwcrt wcrt' for the bounds, or ";
}

}  // namespace

void require_fixed_times(const Workload& w) {
    for (const Operation& op : w.ops) {
        const std::string key = op.is_kernel() ? "block_time" : "duration";
        if (!op.time.is_point())
            throw InputError(op.where, "'" + op.name + "' has " + key + " = " + interval_text(op.time) + ": " +
                                           cannot(op.is_kernel() ? "block-time intervals" : "copy-duration intervals") +
                                           "give " + key +
                                           " one value, or try chosen values with 'gpuwcrt simulate' "
                                           "(it uses the upper end)");
        if (op.issue.is_static() && !op.issue.at.is_point())
            throw InputError(op.where, "'" + op.name + "' has issue = " + interval_text(op.issue.at) + ": " +
                                           cannot("issue windows") +
                                           "give issue one instant, or try chosen instants with 'gpuwcrt simulate' "
                                           "(it uses the lower end)");
    }
}

}  // namespace gpuwcrt
