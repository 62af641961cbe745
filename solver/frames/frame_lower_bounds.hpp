#pragma once
// The lower bounds of the all-time analysis through the one framework of replayed lower bounds
// (sim/search/best_scenarios.hpp): candidates on the unrolled frames `u` from the scenario
// searches, the phasings of sporadic streams and the engines' witnesses, each kept only when it
// is a scenario of the system (the acceptance: every frame released at one instant,
// frames_consistent; the operation complete by `end`, before any frame left out of `u` is
// released), replayed by the framework before it counts.
#include <functional>
#include <memory>
#include <vector>

#include "bounds/answer.hpp"
#include "common/budget.hpp"
#include "model/frames/unroll.hpp"
#include "sim/search/best_scenarios.hpp"
#include "sim/search/lower_bounds.hpp"

namespace gpuwcrt {

class FrameLowerBounds {
public:
    // `w`: the file's workload; `u` its frames (both outlive this); `end` zero when nothing
    // repeats (every frame is in `u`, so every completion counts).
    FrameLowerBounds(const Workload& w, const Unrolled& u, const Time& end);

    // The best scenario per unrolled operation of a search whose workload has u's operations in
    // u's order, offered best first.
    void offer_search(const search::LowerBoundSearch& s, const Budget& budget);
    // The best scenarios of the phasings (phased_lower_bounds.hpp), scenarios of u.workload.
    void offer_phasings(const search::BestScenarios& phased, const Budget& budget);
    // An engine's answers on u.workload: their witnesses, named by their lower_by.
    void offer_answers(const std::vector<WcrtAnswer>& answers, const Budget& budget);

    // Each operation of the file met with its best frame's replayed response (absorb: a
    // response above a proven upper bound throws BoundsContradict).
    void fold_into(std::vector<WcrtAnswer>& answers) const;
    // Per operation of the file: the response of its best frame replayed so far.
    const std::vector<std::optional<Time>>& file_best() const { return file_best_; }

private:
    // Found responses (unrolled operation, response), offered best first: each replay simulates
    // every frame, so an operation of the file stops at its best candidate that is a scenario of
    // the system, and the replays stop with the budget.
    void offer_best_first(std::vector<std::pair<int, Time>> found,
                          const std::function<std::shared_ptr<const WitnessScenario>(int)>& witness,
                          const std::function<Provenance(int)>& by, const Budget& budget);

    const Workload& w_;
    const Unrolled& u_;
    search::BestScenarios best_;
    std::vector<Provenance> by_;                  // per unrolled operation: who found its best
    std::vector<std::optional<Time>> file_best_;  // per operation of the file: its best frame's
};

}  // namespace gpuwcrt
