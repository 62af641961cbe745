#include "solver/frames/frame_lower_bounds.hpp"

#include <algorithm>

#include "sim/frames/frame_consistency.hpp"

namespace gpuwcrt {

FrameLowerBounds::FrameLowerBounds(const Workload& w, const Unrolled& u, const Time& end)
    : w_(w),
      u_(u),
      best_(u.workload,
            search::Acceptance{[&w, &u](const WitnessScenario& x) { return frames_consistent(w, u, x); },
                               [end](int op, const Schedule& s) { return end == 0 || s.ops[op].finish <= end; }}),
      by_(u.workload.ops.size(), Provenance::none),
      file_best_(w.ops.size()) {}

void FrameLowerBounds::offer_best_first(std::vector<std::pair<int, Time>> found,
                                        const std::function<std::shared_ptr<const WitnessScenario>(int)>& witness,
                                        const std::function<Provenance(int)>& by, const Budget& budget) {
    std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    for (const auto& [i, response] : found) {
        if (budget.expired()) return;
        std::optional<Time>& so_far = file_best_[file_operation(u_, i)];
        if (so_far && response <= *so_far) continue;
        if (!best_.offer_witness(i, response, witness(i))) continue;
        so_far = response;
        by_[i] = by(i);
    }
}

void FrameLowerBounds::offer_search(const search::LowerBoundSearch& s, const Budget& budget) {
    std::vector<std::pair<int, Time>> found;
    for (std::size_t i = 0; i < u_.workload.ops.size(); ++i)
        if (const std::optional<Time>& best = s.best()[i]) found.emplace_back(static_cast<int>(i), *best);
    offer_best_first(
        std::move(found), [&s](int i) { return s.replayed(i); }, [](int) { return Provenance::frame_search; }, budget);
}

void FrameLowerBounds::offer_phasings(const search::BestScenarios& phased, const Budget& budget) {
    std::vector<std::pair<int, Time>> found;
    for (std::size_t i = 0; i < u_.workload.ops.size(); ++i)
        if (const std::optional<Time>& best = phased.best()[i]) found.emplace_back(static_cast<int>(i), *best);
    offer_best_first(
        std::move(found), [&phased](int i) { return phased.kept_shared(i); },
        [](int) { return Provenance::frame_search; }, budget);
}

void FrameLowerBounds::offer_answers(const std::vector<WcrtAnswer>& answers, const Budget& budget) {
    std::vector<std::pair<int, Time>> found;
    for (std::size_t i = 0; i < answers.size(); ++i)
        if (answers[i].lower && answers[i].witness) found.emplace_back(static_cast<int>(i), *answers[i].lower);
    offer_best_first(
        std::move(found), [&answers](int i) { return std::make_shared<const WitnessScenario>(*answers[i].witness); },
        [&answers](int i) { return answers[i].lower_by; }, budget);
}

void FrameLowerBounds::fold_into(std::vector<WcrtAnswer>& answers) const {
    for (std::size_t i = 0; i < u_.workload.ops.size(); ++i) {
        const int op = file_operation(u_, static_cast<int>(i));
        const std::optional<Time>& best = best_.best()[i];
        if (!best || *best != file_best_[op]) continue;  // only the frame that gave the operation's best
        WcrtAnswer found;
        found.op = op;
        found.lower = best;
        found.witness = best_.witness(static_cast<int>(i));
        found.lower_by = by_[i];
        found.frame = u_.origin[i].frame;
        absorb(w_, answers[op], found, by_[i]);
    }
}

}  // namespace gpuwcrt
