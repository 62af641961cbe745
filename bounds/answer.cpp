#include "bounds/answer.hpp"

namespace gpuwcrt {

std::string to_string(WcrtStatus s) { return s == WcrtStatus::exact ? "exact" : "unknown"; }

std::string to_string(Verdict v) {
    switch (v) {
        case Verdict::certified:
            return "certified";
        case Verdict::refuted:
            return "refuted";
        case Verdict::unknown:
            return "unknown";
    }
    return "?";
}

std::string grid_maximum_reason(const Time& grid) {
    return "maximum on grid " + exact_string(grid) + ": a lower bound, times between grid points may give more";
}

std::string grid_certify_reason(const Time& grid) {
    return "no scenario on grid " + exact_string(grid) + " exceeds the bound, times between grid points may";
}

}  // namespace gpuwcrt
