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
    std::string offloader;           // the CPU task whose trigger releases it, if any
    std::string window_note;         // for an offloaded task: its window as the task alone gives it
};

struct ModelIndex {
    std::map<std::string, pugi::xml_node> runnables, tasks, stimuli, labels;
};

// A PeriodicStimulus's times, in ms.
struct Periodic {
    Time offset = 0, recurrence = 0;
    TimeRange jitter{0, 0};
};
Periodic periodic(const XmlSource& src, const pugi::xml_node& stimulus, std::vector<std::string>& notes);

// The one stimulus a task names, or a null node when it names none; InputError for several.
pugi::xml_node stimulus_of(const XmlSource& src, const ModelIndex& model, const pugi::xml_node& task);

// [fastest, slowest] time in ms of `work` on the units the mapping gives `task`: on each, the
// Ticks its own ProcessingUnitDefinition's `extended` value gives, else their default, at its
// FrequencyDomain; `units_text` gets the units' names. InputError for a task on no unit or a
// unit without a frequency.
TimeRange cpu_work_ms(const XmlSource& src, const GpuContext& gpu, const pugi::xml_node& task,
                      const std::vector<pugi::xml_node>& work, std::string& units_text);

// The activation of a task on the GPU, in ms. InputError for a stimulus the importer cannot
// map: several stimuli, other stimulus types, an InterProcessStimulus that no task or several
// tasks fire, fired by a task that is not periodic, not allocated, on the GPU, or that waits
// for an event before the trigger.
Activation read_activation(const XmlSource& src, const ModelIndex& model, const GpuContext& gpu,
                           const pugi::xml_node& task);

}  // namespace gpuwcrt::amalthea
