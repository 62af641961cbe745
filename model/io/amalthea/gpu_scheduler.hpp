#pragma once
// How the mapping model schedules the GPU tasks: the TaskScheduler of their task allocations.
// gpuwcrt reads one kind of GPU scheduler, the time-sliced one of the WATERS 2019 model (a
// UserSpecificSchedulingAlgorithm with the parameters minimumTimeslice and maximumTimeslice,
// and per task allocation a parameter TimeSlice_<task>), in its 0.9/1.x form
// (schedulingAlgorithm with parameterExtensions) and its 2.x form (a SchedulerDefinition with
// schedulingParameters). docs/decisions/0029-amalthea-follows-the-model.md says why.
#include <map>
#include <string>

#include "model/io/amalthea/gpu_context.hpp"
#include "model/io/amalthea/xml_source.hpp"
#include "model/workload.hpp"

namespace gpuwcrt::amalthea {

struct GpuTimeSlice {
    Time slice = 0;  // ms
    SourceLocation where;
};

struct GpuScheduling {
    std::string scheduler;                       // the TaskScheduler's name, "" when the model maps no task
    TimeRange allowed{0, 0};                     // [minimumTimeslice, maximumTimeslice] in ms
    std::map<std::string, GpuTimeSlice> slices;  // GPU task -> its time slice
};

// The scheduling of gpu.gpu_tasks. Throws InputError (at the task allocation or the scheduler)
// for a GPU scheduler of another kind, naming it; for GPU tasks under different schedulers; for
// a task without its time slice; and for a slice outside [minimumTimeslice, maximumTimeslice].
// A model without a mapping has no scheduler: the result is empty.
GpuScheduling read_gpu_scheduling(const XmlSource& src, const GpuContext& gpu);

// The osModel's TaskScheduler of that name, anywhere below `node`; a null node when none.
pugi::xml_node find_task_scheduler(const pugi::xml_node& node, const std::string& name);

// What a TaskScheduler's algorithm is called, in either form ("FixedPriorityPreemptive").
std::string algorithm_name(const pugi::xml_node& scheduler);

// A time written as text, e.g. "7200µs", "1000 µs", "50 ms": in ms, exactly; s, ms, us (also
// µs), ns. nullopt for anything else.
std::optional<Time> text_time_ms(const std::string& text);

}  // namespace gpuwcrt::amalthea
