#pragma once
// What the hardware and mapping models of an AMALTHEA file say about the GPU: which processing
// units are GPUs (their ProcessingUnitDefinition has puType="GPU"), which tasks the mapping
// places on one, and the GPU's clock frequency, which gives the duration of a tick; for the CPU
// tasks that offload work to the GPU, the processing units they run on and their clocks; and the
// GPU's data rate to memory, which gives the duration of a copy.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/io/amalthea/xml_source.hpp"
#include "model/time.hpp"

namespace gpuwcrt::amalthea {

struct UnitInfo {
    pugi::xml_node node;
    std::string definition;            // ProcessingUnitDefinition name, "" when none
    std::optional<Time> frequency_hz;  // of its FrequencyDomain, when it has one
};

struct GpuContext {
    bool has_mapping = false;                                    // the mapping model allocates at least one task
    std::vector<std::string> gpu_tasks;                          // with a mapping: tasks placed on GPUs only
    std::vector<std::string> other_tasks;                        // with a mapping: tasks placed elsewhere or nowhere
    std::set<std::string> gpu_definitions;                       // ProcessingUnitDefinition names with puType GPU
    std::optional<Time> frequency_hz;                            // of the GPU(s) the import uses, when the model has it
    std::string frequency_source;                                // "FrequencyDomain 'f' of ProcessingUnit 'gpu'"
    bool defines_units = false;                                  // the hardware model has a ProcessingUnitDefinition
    std::map<std::string, UnitInfo> units;                       // every ProcessingUnit, by name
    std::map<std::string, std::vector<std::string>> task_units;  // the mapping's units of each task
    std::map<std::string, pugi::xml_node> allocations;           // each task's taskAllocation
    std::map<std::string, std::vector<std::string>> responsibility;  // each TaskScheduler's units
    std::optional<Time> data_rate;  // bytes per ms of the used GPUs' access elements (dataRate)
    std::string data_rate_source;
};

// Reads hwModel and mappingModel. Throws InputError for a task placed on both GPUs and other
// processing units, a hardware model with processing units but no GPU (no GPU work), a mapping
// that places no task on a GPU, and GPUs of different frequencies or data rates.
GpuContext read_gpu_context(const XmlSource& src);

}  // namespace gpuwcrt::amalthea
