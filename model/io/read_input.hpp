#pragma once
// Reading an input file whole, for every loader (workload TOML, examiner config and log): a
// directory, device or socket, an unreadable file or one over limits::max_input_bytes is an
// InputError naming the path, never an internal error or an endless read.
#include <string>

namespace gpuwcrt {

// `path` "-" reads standard input. Regular files and pipes (`<(command)`) are accepted.
std::string read_input_file(const std::string& path);

}  // namespace gpuwcrt
