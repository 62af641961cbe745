#pragma once
#include <string>
#include <vector>

namespace gpuwcrt::app {

// Writes through a temporary file and a rename, so a failed run never leaves half a file, and
// says so on stderr: "gpuwcrt: wrote PATH (WHAT)", so that no file appears unannounced.
// `path` "-" writes to standard output (and announces nothing).
void write_output_file(const std::string& path, const std::string& content, const std::string& what);

struct OutputPath {
    std::string option;  // "--svg", "-o", … for the message
    std::string path;    // empty: not requested; "-": standard output
};

// Call before any work: throws option_error when an output names the same file as an input
// (also through another spelling, a symlink or a hard link) or as another output of the same
// command, names a directory, or lies in a directory that does not exist (so that a long run
// does not fail only when it writes). "-" (standard input/output) and empty paths are not files.
void check_output_paths(const std::vector<OutputPath>& outputs, const std::vector<std::string>& inputs,
                        const std::vector<std::string>& more_inputs = {});

// The file name after the last '/', for the titles of imported workloads.
std::string base_name(const std::string& path);

}  // namespace gpuwcrt::app
