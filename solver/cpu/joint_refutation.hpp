#pragma once
// Lower bounds on the requirements' responses from runs of the whole system (sim/cpu/joint_run.hpp):
// a few scenarios — executions at their upper and at their lower ends, each requirement's task
// last among its priority — run until every requirement's task has had `jobs` jobs; only a run
// whose CPU and GPU sides agree counts, only what ends before its horizon, and the best run of
// each requirement is replayed before it is kept.
#include <optional>
#include <vector>

#include "bounds/cpu/requirement_answer.hpp"
#include "common/budget.hpp"
#include "model/workload.hpp"

namespace gpuwcrt {

// Per requirement of w: the run in which its task's job (or its stream's frame) responds the
// longest, if any run agreed.
std::vector<std::optional<JointRunWitness>> joint_run_witnesses(const Workload& w, const Budget& budget,
                                                                std::int64_t jobs = 8);

// The run again: throws ReplayMismatch unless it agrees and gives the witness's job its response.
void replay_joint_witness(const Workload& w, int requirement, const JointRunWitness& x);

// Each answer met with its requirement's run (bounds/answer.hpp meet: a run above a proven bound
// is a contradiction, never a verdict), and its verdict settled again.
void absorb_joint_runs(const Workload& w, const std::vector<std::optional<JointRunWitness>>& runs,
                       std::vector<RequirementAnswer>& answers);

}  // namespace gpuwcrt
