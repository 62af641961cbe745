#include "solver/block/plan/run_plan.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include "model/integer_time.hpp"
#include "solver/registry.hpp"

namespace gpuwcrt {
namespace {

constexpr std::uint64_t saturated = std::uint64_t(1) << 62;

std::uint64_t times_saturating(std::uint64_t a, std::uint64_t b) {
    if (a == 0 || b == 0) return 0;
    return a > saturated / b ? saturated : a * b;
}

// How many scenarios the tick grid (model/integer_time.hpp) holds: the product of the number of
// grid points of every interval and window (1 for point times), saturating.
std::uint64_t tick_grid_size(const Workload& w) {
    if (!has_ranges(w)) return 1;
    try {
        const IntegerTimes t = integer_times(w);
        std::uint64_t n = 1;
        for (std::size_t i = 0; i < w.ops.size(); ++i) {
            n = times_saturating(n, static_cast<std::uint64_t>(t.hi[i] - t.lo[i] + 1));
            n = times_saturating(n, static_cast<std::uint64_t>(t.issue_hi[i] - t.issue_lo[i] + 1));
        }
        return n;
    } catch (const InputError&) {  // no tick grid: the exact engine refuses it anyway
        return saturated;
    }
}

}  // namespace

bool has_ranges(const Workload& w) {
    return std::any_of(w.ops.begin(), w.ops.end(), [](const Operation& op) {
        return !op.time.is_point() || (op.issue.kind == IssueSpec::Kind::at && !op.issue.at.is_point());
    });
}

std::uint64_t exact_set_estimate(const Workload& w) {
    std::map<int, std::uint64_t> per_stream;
    for (const Operation& op : w.ops) ++per_stream[op.stream];
    std::uint64_t sets = 1;
    for (const auto& [stream, n] : per_stream) sets = times_saturating(sets, n + 1);
    return times_saturating(sets, tick_grid_size(w));
}

std::vector<PlanStep> make_plan(const Workload& w, bool exact_in_scope, bool smt_in_scope) {
    const bool ranges = has_ranges(w);
    const std::uint64_t sets = exact_set_estimate(w);
    // The abstraction's keys are sets of determined operations as well, each with up to K states.
    const std::uint64_t bounds_quick =
        times_saturating(exact_set_estimate(w) / std::max<std::uint64_t>(tick_grid_size(w), 1), 16);
    const std::uint64_t operations = w.ops.size();
    std::vector<PlanStep> steps;
    PlanStep interference{
        engine_name::interference, false, true, times_saturating(operations, operations), 0, false, ""};
    interference.formula = true;
    steps.push_back(interference);
    bool exact_planned = false;
    if (exact_in_scope && !ranges && sets <= exact_first_sets) {
        PlanStep first{engine_name::exact,
                       true,
                       false,
                       sets,
                       0,
                       false,
                       "exact first: about " + std::to_string(sets) + " sets of determined operations"};
        first.bounds_beside = true;
        steps.push_back(first);
        exact_planned = true;
    }
    steps.push_back({engine_name::bounds, false, true, ranges ? saturated : bounds_quick, 0, !ranges,
                     ranges ? "bounds: upper bounds over the intervals and windows"
                            : "bounds: quick pass, upper bounds for what is open"});
    if (exact_in_scope && !exact_planned)
        steps.push_back({engine_name::exact, !ranges, false, sets, 0, false,
                         ranges ? "exact: the maximum over the grid, a replayed lower bound"
                                : "exact: on what is open, until --timeout or --max-memory"});
    if (smt_in_scope) {
        steps.push_back({engine_name::smt, !ranges, false, saturated, 0, false, "smt: one operation at a time"});
        PlanStep busy_time{engine_name::busy_time, false, true, operations, 0, false, ""};
        busy_time.formula = busy_time.fallback = true;
        steps.push_back(busy_time);
    }
    // Formulas first, then cheap decisive steps, then the upper-bound pass, then by estimate,
    // the fallback last; stable, so equal keys keep the order above.
    auto rank = [](const PlanStep& s) {
        const int kind = s.fallback                                     ? 4
                         : s.formula                                    ? 0
                         : s.decisive && s.estimate <= exact_first_sets ? 1
                         : s.upper_bounds                               ? 2
                                                                        : 3;
        return std::make_pair(kind, s.estimate);
    };
    std::stable_sort(steps.begin(), steps.end(),
                     [&](const PlanStep& a, const PlanStep& b) { return rank(a) < rank(b); });
    return steps;
}

}  // namespace gpuwcrt
