#pragma once
// The gpuwcrt TOML input format (docs/reference/input-format.md). Every problem is an InputError
// carrying file:line:column; unknown keys are never ignored.
#include <string>

#include "model/workload.hpp"

namespace gpuwcrt {

// `path` "-" reads standard input.
Workload load_workload_file(const std::string& path);
// `name` is what messages call the document.
Workload load_workload_text(const std::string& text, const std::string& name);

}  // namespace gpuwcrt
