#pragma once
// The CPU side and the GPU analysed together (docs/theory/semantics.md §11): the GPU streams'
// release windows come from proven bounds of their tasks' pre-GPU parts, and the tasks'
// suspensions from the GPU's bounds on their frames; iterated to a fixed point from below.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bounds/cpu/cpu_rta.hpp"
#include "bounds/cpu/requirement_answer.hpp"
#include "common/budget.hpp"
#include "model/workload.hpp"

namespace gpuwcrt {

// Per stream of the workload: a proven bound on every frame's completion from its release, for
// all time; none where nothing is proven. Any GPU analysis can supply it.
using GpuFrameBounds = std::function<std::vector<std::optional<Time>>(const Workload&, const Budget&)>;

// Through the all-time engine (solver/frames/): the bound of a frame's last operation plus the
// latest issue of it after the release.
std::vector<std::optional<Time>> all_time_frame_bounds(const Workload& w, const Budget& budget);
// The same, and per stream why it has no bound (empty where it has one).
std::vector<std::optional<Time>> all_time_frame_bounds_saying_why(const Workload& w, const Budget& budget,
                                                                  std::vector<std::string>& why);

struct CpuSideResult {
    Workload analysed;                     // the driven streams with the jitter the CPU bounds prove
    std::vector<CpuRtaBound> tasks;        // per task of w.cpu.tasks
    std::vector<std::optional<Time>> gpu;  // per stream: frame bound in `analysed`
    bool proven = false;                   // a fixed point was reached: the bounds hold
    // Per task: no task its bound depends on (itself, and transitively every task of equal or
    // higher priority allowed on one of its cores) waits for the GPU, so its bound holds whether
    // or not the fixed point was reached.
    std::vector<bool> gpu_free;
    int rounds = 0;
    std::string reason;                   // why not proven
    std::optional<int> unbounded_stream;  // the driven stream whose frames had no bound, if that was why
};

CpuSideResult cpu_side_fixed_point(const Workload& w, const GpuFrameBounds& gpu, const Budget& budget,
                                   int max_rounds = 16, const CpuRtaMutation& mutation = {});

// What the bounds rest on beyond the model: the scheduler's behaviour over multi-core affinities.
std::vector<std::string> cpu_side_assumptions(const Workload& w);

// One answer per requirement of w, from the result (its bounds only when proven).
std::vector<RequirementAnswer> requirement_answers(const Workload& w, const CpuSideResult& r);

// What the model states that contradicts itself: a limit past its task's period, a requirement
// named after another task than the one it is on. One sentence each.
std::vector<std::string> requirement_warnings(const Workload& w);

}  // namespace gpuwcrt
