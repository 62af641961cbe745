#pragma once
#include <string>

namespace gpuwcrt::app {

// Writes through a temporary file and a rename, so a failed run never leaves half a file.
// `path` "-" writes to standard output.
void write_output_file(const std::string& path, const std::string& content);

}  // namespace gpuwcrt::app
