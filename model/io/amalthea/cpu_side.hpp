#pragma once
// The CPU side of a mapped AMALTHEA model as the workload's [[cpu]] and [[cpu_task]]s
// (docs/theory/semantics.md §11, docs/decisions/0034-cpu-affinity.md): one core per CPU
// ProcessingUnit that runs a task, one task per task allocated to CPU units, its affinity and
// priority from its taskAllocation, else --priority (a larger value runs first: the FixedPriorityPreemptive
// SchedulerDefinition of 2.x says so, and 0.9.x's priority attribute means the same), its
// period and offset from its PeriodicStimulus, its execution the Ticks of its runnables at its
// cores' frequencies, split at the InterProcessTrigger of a GPU task into `execution` (before),
// `gpu` (the stream it releases and waits for) and `after_gpu`. A CPU task released by another
// CPU task's trigger, which waits for it, runs as part of that task when both have the same
// priority and affinity (the pair then places the same work at the same priority on the same
// cores as one job); anything else the analysis cannot represent is an InputError, except a
// scheduler other than FixedPriorityPreemptive: then the CPU side is left out, and said.
#include <map>
#include <string>
#include <vector>

#include "model/io/amalthea/activation.hpp"
#include "model/io/amalthea/gpu_context.hpp"
#include "model/workload.hpp"

namespace gpuwcrt::amalthea {

// Why the CPU side is left out, "" when it is not: a CPU task scheduled by another algorithm
// than FixedPriorityPreemptive (its allocation's TaskScheduler, or none).
std::string cpu_side_left_out(const XmlSource& src, const GpuContext& gpu);

struct CpuSideInputs {
    std::map<std::string, int> streams;            // GPU task name -> its stream in the workload
    std::map<std::string, std::int64_t> priority;  // --priority: per task whose allocation has none
};

// Fills w.cpu from the tasks of gpu.other_tasks; the streams their tasks drive take their
// arrivals from them. A task whose allocation gives no priority needs one from --priority (an
// InputError names it); --priority for a task that has one, or is no CPU task, is an option
// error. Facts worth stating (priorities given by option, an allocation contradicting its
// scheduler's responsibility, tasks left out) go to `notes`.
void import_cpu_side(const XmlSource& src, const ModelIndex& model, const GpuContext& gpu, const CpuSideInputs& in,
                     Workload& w, std::vector<std::string>& notes);

}  // namespace gpuwcrt::amalthea
