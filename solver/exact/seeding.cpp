#include "solver/exact/seeding.hpp"

#include <stdexcept>

#include "sim/witness.hpp"
#include "solver/exact/witness_path.hpp"

namespace gpuwcrt::exact {

WcrtAnswer exact_answer(const Problem& p, int op, const std::string& stop, const Best& b,
                        const search::BestScenarios& seeds,
                        const std::function<std::vector<std::vector<int>>()>& steps_to_parent) {
    WcrtAnswer a;
    a.op = op;
    // Intervals and windows: the maximum over the tick grid is attained by a replayed scenario,
    // but the supremum over the real intervals may lie between grid points (docs/decisions/0011-exact-engine-grid.md):
    // a lower bound, never exact, and no upper bound.
    const bool exact = stop.empty() && !p.ranges;
    a.status = exact ? WcrtStatus::exact : WcrtStatus::unknown;
    a.unknown_reason = stop.empty() && p.ranges ? "grid" : stop;
    if (!b.found) {
        if (stop.empty()) throw std::logic_error("exact engine: a complete search never determined an operation");
        return a;
    }
    if (b.seeded) {  // nothing better than the seeding run's answer (replayed there)
        a.lower = seeds.best()[op];
        a.witness = seeds.kept(op);
        if (exact) a.upper = a.lower;
        return a;
    }
    std::vector<std::vector<int>> steps = steps_to_parent();
    steps.push_back(b.last_step);
    const WitnessScenario x = reconstruct_witness(p, steps);
    const Time response = p.times.to_time(b.response);
    replay_witness(*p.w, x, op, response);
    a.lower = response;
    a.witness = x;
    if (exact) a.upper = response;
    return a;
}

}  // namespace gpuwcrt::exact
