#pragma once
// Import of cuda_scheduling_examiner JSON configs (the tool behind the RTSS'17 and thesis
// measurements) as gpuwcrt workloads. docs/guide/compare-with-measurements.md documents the
// mapping; every construct the model cannot express is an InputError, never dropped.
#include <optional>
#include <string>
#include <vector>

#include "model/workload.hpp"

namespace gpuwcrt {

struct ExaminerImportOptions {
    // Host<->device copy bandwidth in bytes per second; required when a multikernel.so entry
    // has copy_in_count or copy_out_count (the config gives sizes, not durations).
    std::optional<Time> copy_bandwidth;
};

struct ExaminerImport {
    Workload workload;
    std::string scenario_name;       // the config's "name"
    std::vector<std::string> notes;  // facts about the import worth keeping beside the result
};

ExaminerImport import_examiner_config(const std::string& text, const std::string& name,
                                      const ExaminerImportOptions& options);
ExaminerImport import_examiner_file(const std::string& path, const ExaminerImportOptions& options);

// The plugins the importer understands (by file name, directory ignored).
const std::vector<std::string>& examiner_supported_plugins();

}  // namespace gpuwcrt
