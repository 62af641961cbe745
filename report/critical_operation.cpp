#include "report/critical_operation.hpp"

#include <utility>

namespace gpuwcrt {
namespace {

// Smaller is more critical: (class, key) with class 0 refuted, 1 unproven, 2 certified, 3 no bound.
std::pair<int, Time> criticality(const MarginRow& r) {
    if (!r.bound) {
        const std::optional<Time>& size = r.upper ? r.upper : r.lower;
        return {3, size ? Time(-*size) : Time(0)};
    }
    if (r.lower && *r.lower > *r.bound) return {0, *r.bound - *r.lower};
    if (!r.upper) return {1, 0};
    if (*r.upper > *r.bound) return {1, *r.bound - *r.upper};
    return {2, *r.bound - *r.upper};
}

}  // namespace

std::optional<int> critical_operation(const std::vector<MarginRow>& rows) {
    const MarginRow* best = nullptr;
    std::pair<int, Time> best_key;
    for (const MarginRow& r : rows) {
        if (!r.charted) continue;
        const std::pair<int, Time> key = criticality(r);
        if (!best || key < best_key) {
            best = &r;
            best_key = key;
        }
    }
    return best ? std::optional<int>(best->op) : std::nullopt;
}

}  // namespace gpuwcrt
