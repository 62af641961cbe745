#include "app/output_file.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "model/source_location.hpp"

namespace gpuwcrt::app {
namespace {

namespace fs = std::filesystem;

bool is_file_path(const std::string& p) { return !p.empty() && p != "-"; }

bool same_file(const std::string& a, const std::string& b) {
    std::error_code ea, eb;
    if (fs::exists(a, ea) && fs::exists(b, eb)) {
        std::error_code e;
        const bool same = fs::equivalent(a, b, e);
        if (!e) return same;
    }
    // One does not exist yet: compare the paths the OS would open (symlinks and ".." resolved).
    fs::path ca = fs::weakly_canonical(a, ea), cb = fs::weakly_canonical(b, eb);
    if (ea) ca = fs::absolute(a).lexically_normal();
    if (eb) cb = fs::absolute(b).lexically_normal();
    return ca == cb;
}

// A temporary name next to `path` that names no existing file, so that writing it cannot
// replace anything (not even an input called "OUT.tmp").
std::string fresh_temporary(const std::string& path) {
    for (int i = 0;; ++i) {
        std::string tmp = path + ".tmp" + (i ? std::to_string(i) : "");
        std::error_code e;
        if (!fs::exists(fs::symlink_status(tmp, e))) return tmp;
    }
}

}  // namespace

void write_output_file(const std::string& path, const std::string& content, const std::string& what) {
    if (path == "-") {
        std::cout << content;
        return;
    }
    const std::string tmp = fresh_temporary(path);
    {
        std::ofstream out(tmp, std::ios::binary);
        out << content;
        if (!out.flush()) {
            std::remove(tmp.c_str());
            throw InputError({path, 0, 0}, "cannot write the output file");
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        throw InputError({path, 0, 0}, "cannot write the output file");
    }
    std::cerr << "gpuwcrt: wrote " << path << " (" << what << ")\n";
}

void check_output_paths(const std::vector<OutputPath>& outputs, const std::vector<std::string>& inputs,
                        const std::vector<std::string>& more_inputs) {
    std::vector<std::string> all_inputs = inputs;
    all_inputs.insert(all_inputs.end(), more_inputs.begin(), more_inputs.end());
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const OutputPath& out = outputs[i];
        if (!is_file_path(out.path)) continue;
        std::error_code e;
        if (fs::is_directory(out.path, e))
            throw option_error(out.option, "'" + out.path + "' is a directory; give a file name");
        const fs::path parent = fs::path(out.path).parent_path();
        if (!parent.empty() && !fs::is_directory(parent, e))
            throw option_error(out.option, "the directory of '" + out.path + "' does not exist");
        for (const std::string& in : all_inputs)
            if (is_file_path(in) && same_file(out.path, in))
                throw option_error(out.option, "'" + out.path + "' is the input file" +
                                                   (in == out.path ? "" : " '" + in + "'") +
                                                   "; writing it would destroy the input, give another path");
        for (std::size_t j = 0; j < i; ++j)
            if (is_file_path(outputs[j].path) && same_file(out.path, outputs[j].path))
                throw option_error(out.option, "'" + out.path + "' is also the " + outputs[j].option +
                                                   " output; give each output its own path");
    }
}

std::string base_name(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace gpuwcrt::app
