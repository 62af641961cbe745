#pragma once
// What certify prints of the CPU side (docs/theory/semantics.md §11): every requirement's
// verdict with the CPU and GPU parts of its bound, every task's bounds, every driven stream's
// release window, in text and JSON.
#include <ostream>
#include <string>
#include <vector>

#include "bounds/cpu/cpu_rta.hpp"
#include "bounds/cpu/requirement_answer.hpp"
#include "model/workload.hpp"
#include "report/json.hpp"

namespace gpuwcrt {

// What the fixed point of the CPU and GPU bounds established (solver/cpu/cpu_side.hpp).
struct CpuSideReport {
    const Workload& analysed;  // the driven streams with their proven release windows
    const std::vector<CpuRtaBound>& tasks;
    const std::vector<std::optional<Time>>& gpu;  // per stream: frame bound from its release
    bool proven;
    int rounds;
    std::string reason;
    const std::vector<RequirementAnswer>& answers;
};

void print_cpu_side(std::ostream& out, const CpuSideReport& r);
Json cpu_side_json(const CpuSideReport& r);

}  // namespace gpuwcrt
