#pragma once
// What the exact search shares between one process (explorer.cpp) and many
// (distributed/, docs/theory/distributed.md) besides the level search itself (level_search.hpp): the
// seeding beam run and the answer of one operation from the best response found and the path that reached it.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bounds/answer.hpp"
#include "bounds/engine_options.hpp"
#include "common/budget.hpp"
#include "common/progress.hpp"
#include "sim/search/best_scenarios.hpp"
#include "solver/exact/problem.hpp"
#include "solver/exact/records.hpp"

namespace gpuwcrt::exact {

// The largest responses of a beam run of `beam` states per set of determined operations
// (docs/theory/exact-engine.md, "Pruning by bounds"), in ticks, each kept replayed in `kept`.
struct Seeds {
    std::vector<char> found;
    std::vector<std::int64_t> response;
};
Seeds seed_responses(const Workload& w, const EngineOptions& o, const Budget& budget, int beam,
                     const StatesSignal& stored, search::BestScenarios& kept);

// The answer for `op` of a search that stopped for `stop` (empty: it completed): its largest
// response `b`, whose witness is the seeding run's (`seeds`) or rebuilt from the decisions of
// every step to it (`steps_to_parent()`, then b.last_step) and replayed through the simulator.
WcrtAnswer exact_answer(const Problem& p, int op, const std::string& stop, const Best& b,
                        const search::BestScenarios& seeds,
                        const std::function<std::vector<std::vector<int>>()>& steps_to_parent);

}  // namespace gpuwcrt::exact
