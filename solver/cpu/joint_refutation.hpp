#pragma once
// Lower bounds on the requirements' responses from runs of the whole system (sim/cpu/joint_run.hpp):
// a few scenarios — executions at their upper and at their lower ends, each requirement's task
// last among its priority — run until every open requirement's task has had 1, 2, 4 … `jobs`
// jobs, a requirement refuted on the way no longer open (lower bounds until answered,
// docs/decisions/0036); only what ends while the CPU and GPU sides agree counts, and the best
// run of each requirement is replayed before it is kept.
#include <optional>
#include <vector>

#include "bounds/cpu/requirement_answer.hpp"
#include "common/budget.hpp"
#include "model/workload.hpp"

namespace gpuwcrt {

// Per requirement of w that is open (`open`, per requirement): the run in which its task's job
// (or its stream's frame) responds the longest, if any.
std::vector<std::optional<JointRunWitness>> joint_run_witnesses(const Workload& w, const Budget& budget,
                                                                std::vector<bool> open, std::int64_t jobs = 8);

// The requirements not yet answered: neither certified nor refuted.
std::vector<bool> open_requirements(const std::vector<RequirementAnswer>& answers);

// The run again: throws ReplayMismatch unless it agrees and gives the witness's job its response.
void replay_joint_witness(const Workload& w, int requirement, const JointRunWitness& x);

// Each answer met with its requirement's run (bounds/answer.hpp meet: a run above a proven bound
// is a contradiction, never a verdict), and its verdict settled again.
void absorb_joint_runs(const Workload& w, const std::vector<std::optional<JointRunWitness>>& runs,
                       std::vector<RequirementAnswer>& answers);

}  // namespace gpuwcrt
