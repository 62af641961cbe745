#pragma once
// The inputs the fuzzer mutates: the project's own workloads and examiner files.
#include <string>
#include <vector>

namespace gpuwcrt::fuzz {

enum class Format { toml, json };

struct SeedFile {
    std::string path;  // relative to the source directory, for reports
    std::string text;
};

struct Corpus {
    std::vector<SeedFile> toml;  // cases/**/*.toml, tests/data/**/*.toml
    std::vector<SeedFile> json;  // examiner configs and logs under tests/data/
    const std::vector<SeedFile>& of(Format f) const { return f == Format::toml ? toml : json; }
};

// Reads every seed under `source_dir`, sorted by path so that a seed number means the same
// file everywhere. Throws std::runtime_error when either format has no file.
Corpus load_corpus(const std::string& source_dir);

}  // namespace gpuwcrt::fuzz
