#pragma once
// Import of AMALTHEA models (.amxmi, APP4MC 0.9 with callGraph and 1.x/2.x with activityGraph)
// as gpuwcrt workloads, as the thesis' APP4MC implementation read them (§3.8, Appendix 1):
// runnables are kernels, their Ticks the block time, the custom property GridSize the grid; and
// as the WATERS 2019 model offloads GPU work: a CPU task's InterProcessTrigger releases a GPU
// task every period, whose label-access runnables are copies over the GPU's data rate.
// docs/guide/import-amalthea.md documents the mapping and docs/decisions/0018-amalthea-import.md
// the choices; every construct the importer cannot map is an InputError, never dropped.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/workload.hpp"

namespace gpuwcrt {

struct AmaltheaImportOptions {
    // Duration of one tick in the workload's time unit, for a model that gives no GPU frequency.
    std::optional<Time> tick_time;
    std::int64_t threads = 512;  // per block, for a runnable without the BlockSize property
    // Per runnable, for kernels whose model has no GridSize / BlockSize (--grid, --block-size).
    std::map<std::string, std::int64_t> grid, block_size;
    // The GPU tasks as streams of one process (one CUDA context) sharing the SMs, instead of one
    // time-sliced context per task as the model's GPU scheduler says (--one-process).
    bool one_process = false;
    // The tasks the mapping places on CPUs as [[cpu_task]]s, which release the GPU tasks they
    // offload (model/io/amalthea/cpu_side.hpp); false (--gpu-only): left out, the GPU tasks
    // released as if their CPU tasks were never delayed, which the assumptions say.
    bool cpu_side = true;
    // Per CPU task whose taskAllocation gives no priority (--priority).
    std::map<std::string, std::int64_t> priority;
};

struct AmaltheaImport {
    Workload workload;
    std::string model_version;          // "0.9.5", "2.1.0", from the AMALTHEA namespace
    std::vector<std::string> notes;     // facts about the import worth keeping beside the result
    std::vector<std::string> warnings;  // what the model states against itself (also in the notes)
};

AmaltheaImport import_amalthea_text(const std::string& text, const std::string& name,
                                    const AmaltheaImportOptions& options);
AmaltheaImport import_amalthea_file(const std::string& path, const AmaltheaImportOptions& options);

}  // namespace gpuwcrt
