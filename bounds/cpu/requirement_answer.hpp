#pragma once
// The answer about one requirement of the model (docs/theory/semantics.md §11): the bound on its
// task's or stream's response, in the one answer type, with its CPU and GPU parts and a verdict.
#include <optional>
#include <string>
#include <vector>

#include "bounds/answer.hpp"
#include "sim/cpu/joint_run.hpp"

namespace gpuwcrt {

// A job (or frame) of a replayed run of the whole system (sim/cpu/joint_run.hpp) that responds
// in `response`: `gpu_part` waiting for its GPU frame, `cpu_part` the rest.
struct JointRunWitness {
    JointScenario scenario;
    Time horizon, valid_until;  // the run's releases end at the horizon; it is the model's before valid_until
    std::int64_t job = 0;
    Time release, response, cpu_part, gpu_part;
    int rounds = 0;
};

// A run that responds in at least `own + ahead`: a job executing its longest (`own`), released
// with one job of every other task of its core that it cannot precede (`ahead`, their longest
// executions; zero unless every task of the core has offset 0). Every such run is one of the
// model's, whatever the GPU does.
struct CpuJobProof {
    Time own, ahead;
    std::optional<JointRunWitness> joint;  // when the bound is a run of the whole system instead
};

struct RequirementAnswer : BoundedAnswer<Time, CpuJobProof> {
    int requirement = 0;  // index into Workload::cpu.requirements
    Verdict verdict = Verdict::unknown;
    // The proven bound's parts: the CPU's (execution and interference) and the GPU frame's wait.
    std::optional<Time> cpu_part, gpu_part;
};

// certified when the upper bound is at most the limit, refuted when the lower bound exceeds it.
inline void settle_requirement(RequirementAnswer& a, const Time& limit, const std::string& reason) {
    settle(a, reason);
    if (a.upper && *a.upper <= limit) a.verdict = Verdict::certified;
    else if (a.lower && *a.lower > limit) a.verdict = Verdict::refuted;
    else a.verdict = Verdict::unknown;
}

}  // namespace gpuwcrt
