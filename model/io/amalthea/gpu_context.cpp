#include "model/io/amalthea/gpu_context.hpp"

#include <algorithm>
#include <map>

#include "model/io/amalthea/values.hpp"
#include "model/name_policy.hpp"

namespace gpuwcrt::amalthea {
namespace {

struct ProcessingUnit {
    pugi::xml_node node;
    bool is_gpu = false;
    std::string domain;      // FrequencyDomain name, "" when none
    std::string definition;  // ProcessingUnitDefinition name, "" when none
};

struct Hardware {
    std::map<std::string, ProcessingUnit> units;
    std::map<std::string, pugi::xml_node> domains;  // FrequencyDomain name -> element
    std::set<std::string> gpu_definitions;
    bool defines_units = false;
};

std::string ref_name(const XmlSource& src, const pugi::xml_node& node, const std::string& text) {
    const auto r = parse_reference(text);
    if (!r)
        throw InputError(src.where(node), "reference " + quoted_name(text.substr(0, 80)) +
                                              " is not of the form Name?type=Type (references into other files are "
                                              "not supported: merge the model into one .amxmi)");
    return r->name;
}

void collect_units(const XmlSource& src, const pugi::xml_node& node, Hardware& hw) {
    for (const pugi::xml_node& c : node.children()) {
        if (local_name(c) == "modules" && xsi_type(c) == "ProcessingUnit") {
            ProcessingUnit pu{c, false, "", ""};
            if (const auto d = c.attribute("definition")) {
                pu.definition = ref_name(src, c, d.value());
                pu.is_gpu = hw.gpu_definitions.count(pu.definition) > 0;
            }
            if (const auto f = c.attribute("frequencyDomain")) pu.domain = ref_name(src, c, f.value());
            hw.units[src.required(c, "name")] = pu;
        }
        collect_units(src, c, hw);
    }
}

Hardware read_hardware(const XmlSource& src) {
    Hardware hw;
    const pugi::xml_node model = src.root().child("hwModel");
    for (const pugi::xml_node& d : model.children("definitions")) {
        if (xsi_type(d) != "ProcessingUnitDefinition") continue;
        hw.defines_units = true;
        if (std::string(d.attribute("puType").value()) == "GPU") hw.gpu_definitions.insert(src.required(d, "name"));
    }
    for (const pugi::xml_node& d : model.children("domains"))
        if (xsi_type(d) == "FrequencyDomain") hw.domains[src.required(d, "name")] = d;
    collect_units(src, model, hw);
    return hw;
}

// The processing units a task allocation places its task on: its affinity when given, else
// every unit its scheduler is responsible for.
std::vector<std::string> task_units(const XmlSource& src, const pugi::xml_node& allocation,
                                    const std::map<std::string, std::vector<std::string>>& responsibility) {
    std::vector<std::string> units;
    for (const std::string& r : split_references(allocation.attribute("affinity").value()))
        units.push_back(ref_name(src, allocation, r));
    if (!units.empty()) return units;
    const std::string scheduler = ref_name(src, allocation, src.required(allocation, "scheduler"));
    const auto it = responsibility.find(scheduler);
    return it == responsibility.end() ? units : it->second;
}

void read_mapping(const XmlSource& src, const Hardware& hw, GpuContext& gpu, std::set<std::string>& used_gpus) {
    const pugi::xml_node mapping = src.root().child("mappingModel");
    std::map<std::string, std::vector<std::string>> responsibility;
    for (const pugi::xml_node& a : mapping.children("schedulerAllocation")) {
        auto& units = responsibility[ref_name(src, a, src.required(a, "scheduler"))];
        for (const std::string& r : split_references(a.attribute("responsibility").value()))
            units.push_back(ref_name(src, a, r));
    }
    gpu.responsibility = responsibility;
    for (const pugi::xml_node& a : mapping.children("taskAllocation")) {
        gpu.has_mapping = true;
        const std::string task = ref_name(src, a, src.required(a, "task"));
        int gpus = 0, others = 0;
        std::vector<std::string> units = task_units(src, a, responsibility);
        gpu.task_units[task] = units;
        gpu.allocations[task] = a;
        for (const std::string& u : units) {
            const auto it = hw.units.find(u);
            (it != hw.units.end() && it->second.is_gpu ? gpus : others)++;
        }
        if (gpus > 0 && others > 0)
            throw InputError(src.where(a), "task " + quoted_name(task) +
                                               " is placed on GPU and non-GPU processing units at once; gpuwcrt "
                                               "cannot tell whether its runnables are kernels");
        (gpus > 0 ? gpu.gpu_tasks : gpu.other_tasks).push_back(task);
        if (gpus > 0) used_gpus.insert(units.begin(), units.end());
    }
    if (gpu.has_mapping && gpu.gpu_tasks.empty())
        throw InputError(src.where(mapping),
                         "the model has no GPU work: the mapping places no task on a GPU (a ProcessingUnit whose "
                         "ProcessingUnitDefinition has puType=\"GPU\"), so no runnable is a kernel");
}

void read_frequency(const XmlSource& src, const Hardware& hw, const std::set<std::string>& gpus, GpuContext& gpu) {
    for (const std::string& name : gpus) {
        const ProcessingUnit& pu = hw.units.at(name);
        const auto d = hw.domains.find(pu.domain);
        if (d == hw.domains.end() || !d->second.child("defaultValue")) continue;
        const Time f = frequency_hz(src, d->second.child("defaultValue"));
        const std::string source =
            "FrequencyDomain " + quoted_name(d->first) + " of ProcessingUnit " + quoted_name(name);
        if (gpu.frequency_hz && *gpu.frequency_hz != f)
            throw InputError(src.where(d->second), "the GPUs run at different frequencies (" + gpu.frequency_source +
                                                       " and " + source + "), so a tick has no single duration");
        gpu.frequency_hz = f;
        gpu.frequency_source = source;
    }
}

void read_data_rate(const XmlSource& src, const Hardware& hw, const std::set<std::string>& gpus, GpuContext& gpu) {
    for (const std::string& name : gpus) {
        for (const pugi::xml_node& a : hw.units.at(name).node.children("accessElements")) {
            const pugi::xml_node r = a.child("dataRate");
            if (!r) continue;
            const Time rate = data_rate_bytes_per_ms(src, r);
            const std::string source = "dataRate of access element " + quoted_name(a.attribute("name").value()) +
                                       " of ProcessingUnit " + quoted_name(name);
            if (gpu.data_rate && *gpu.data_rate != rate)
                throw InputError(src.where(r), "the GPU's access elements have different data rates (" +
                                                   gpu.data_rate_source + " and " + source +
                                                   "), so a copy has no single duration");
            gpu.data_rate = rate;
            gpu.data_rate_source = source;
        }
    }
}

void read_units(const XmlSource& src, const Hardware& hw, GpuContext& gpu) {
    for (const auto& [name, pu] : hw.units) {
        UnitInfo u{pu.node, pu.definition, std::nullopt};
        const auto d = hw.domains.find(pu.domain);
        if (d != hw.domains.end() && d->second.child("defaultValue"))
            u.frequency_hz = frequency_hz(src, d->second.child("defaultValue"));
        gpu.units[name] = u;
    }
}

}  // namespace

GpuContext read_gpu_context(const XmlSource& src) {
    const Hardware hw = read_hardware(src);
    GpuContext gpu;
    gpu.gpu_definitions = hw.gpu_definitions;
    gpu.defines_units = hw.defines_units;
    if (hw.defines_units && hw.gpu_definitions.empty())
        throw InputError(src.where(src.root().child("hwModel")),
                         "the model has no GPU work: its hardware model defines processing units but no GPU "
                         "(no ProcessingUnitDefinition has puType=\"GPU\"), so no runnable is a kernel");
    std::set<std::string> used_gpus;
    read_mapping(src, hw, gpu, used_gpus);
    if (!gpu.has_mapping)
        for (const auto& [name, pu] : hw.units)
            if (pu.is_gpu) used_gpus.insert(name);
    read_frequency(src, hw, used_gpus, gpu);
    read_data_rate(src, hw, used_gpus, gpu);
    read_units(src, hw, gpu);
    return gpu;
}

}  // namespace gpuwcrt::amalthea
