#include "solver/wcrt_result.hpp"

namespace gpuwcrt {

std::string to_string(WcrtStatus s) { return s == WcrtStatus::exact ? "exact" : "unknown"; }

std::string to_string(Verdict v) {
    switch (v) {
        case Verdict::certified: return "certified";
        case Verdict::refuted: return "refuted";
        case Verdict::unknown: return "unknown";
    }
    return "?";
}

}  // namespace gpuwcrt
