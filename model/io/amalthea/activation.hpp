#pragma once
// When a task on the GPU runs: once at 0 (no stimulus), periodically (its own PeriodicStimulus),
// or each time a periodic CPU task fires the InterProcessTrigger of its InterProcessStimulus,
// the pattern of GPU offloading in the WATERS 2019 model. docs/decisions/0018-amalthea-import.md
// says how the release window follows from the CPU task's work before the trigger.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/io/amalthea/gpu_context.hpp"
#include "model/io/amalthea/xml_source.hpp"
#include "model/workload.hpp"

namespace gpuwcrt::amalthea {

struct Activation {
    Arrival arrival;                 // kind none: one frame at 0
    std::vector<std::string> notes;  // facts worth keeping beside the imported workload
};

struct ModelIndex {
    std::map<std::string, pugi::xml_node> runnables, tasks, stimuli, labels;
};

// The activation of a task on the GPU, in ms. InputError for a stimulus the importer cannot
// map: several stimuli, other stimulus types, an InterProcessStimulus that no task or several
// tasks fire, fired by a task that is not periodic, not allocated, on the GPU, or that waits
// for an event before the trigger.
Activation read_activation(const XmlSource& src, const ModelIndex& model, const GpuContext& gpu,
                           const pugi::xml_node& task);

}  // namespace gpuwcrt::amalthea
