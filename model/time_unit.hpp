#pragma once
// The unit of a workload's times, when the file states one (`time_unit = "s"`, written by
// import-examiner, whose configs and logs are in seconds). The model itself is unitless:
// tables only say "times in seconds" so that nobody has to guess.
#include <optional>
#include <string>

namespace gpuwcrt {

// "seconds" for "s", …; nullopt for a unit gpuwcrt does not know.
inline std::optional<std::string> time_unit_name(const std::string& unit) {
    if (unit == "s") return "seconds";
    if (unit == "ms") return "milliseconds";
    if (unit == "us") return "microseconds";
    if (unit == "ns") return "nanoseconds";
    return std::nullopt;
}

}  // namespace gpuwcrt
