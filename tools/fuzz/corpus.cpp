#include "corpus.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace gpuwcrt::fuzz {
namespace {

namespace fs = std::filesystem;

void add_tree(const fs::path& root, const fs::path& dir, Corpus& c) {
    if (!fs::is_directory(dir)) return;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        if (!e.is_regular_file()) continue;
        const auto ext = e.path().extension();
        if (ext != ".toml" && ext != ".json") continue;
        std::ifstream in(e.path(), std::ios::binary);
        SeedFile s{fs::relative(e.path(), root).string(), {std::istreambuf_iterator<char>(in), {}}};
        (ext == ".toml" ? c.toml : c.json).push_back(std::move(s));
    }
}

}  // namespace

Corpus load_corpus(const std::string& source_dir) {
    const fs::path root(source_dir);
    Corpus c;
    add_tree(root, root / "cases", c);           // bundled workloads (and warp programs: rejected, still useful bytes)
    add_tree(root, root / "tests" / "data", c);  // examiner configs, logs, and the golden imported workloads
    const auto by_path = [](const SeedFile& a, const SeedFile& b) { return a.path < b.path; };
    std::sort(c.toml.begin(), c.toml.end(), by_path);
    std::sort(c.json.begin(), c.json.end(), by_path);
    if (c.toml.empty() || c.json.empty())
        throw std::runtime_error("no .toml or no .json seed under " + source_dir + "/cases and " + source_dir +
                                 "/tests/data");
    return c;
}

}  // namespace gpuwcrt::fuzz
