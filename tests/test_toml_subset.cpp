// The reader of TOML's plain subset (model/io/toml_subset.hpp) against toml++: wherever it
// answers, the document is the one toml++'s tree gives (keys, kinds, values, literal texts and
// every position), and it gives up on what it does not read, so that toml++ says what is wrong.
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>

#include "model/generate/camera_pipeline.hpp"
#include "model/generate/random_workload.hpp"
#include "model/io/toml_parse.hpp"
#include "model/io/toml_subset.hpp"
#include "model/io/write_toml.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

std::string subset_position_text(const TomlRegion& r) {
    return std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column);
}

std::string subset_table_difference(const TomlTable& a, const TomlTable& b, const std::string& path);

// Empty when the two nodes are equal, else the first difference and where.
std::string subset_node_difference(const TomlNode& a, const TomlNode& b, const std::string& path) {
    if (a.kind() != b.kind()) return path + ": kinds differ";
    if (subset_position_text(a.source()) != subset_position_text(b.source()))
        return path + ": at " + subset_position_text(a.source()) + " and " + subset_position_text(b.source());
    if (a.literal() != b.literal()) return path + ": '" + a.literal() + "' and '" + b.literal() + "'";
    if (a.value_exact<std::int64_t>() != b.value_exact<std::int64_t>() ||
        a.value_exact<bool>() != b.value_exact<bool>())
        return path + ": values differ";
    if (a.as_table()) return subset_table_difference(*a.as_table(), *b.as_table(), path);
    if (!a.as_array()) return {};
    const TomlArray &x = *a.as_array(), &y = *b.as_array();
    if (x.size() != y.size()) return path + ": array sizes differ";
    if (x.is_array_of_tables() != y.is_array_of_tables()) return path + ": is_array_of_tables differs";
    for (std::size_t i = 0; i < x.size(); ++i)
        if (std::string d = subset_node_difference(*x.get(i), *y.get(i), path + "[" + std::to_string(i) + "]");
            !d.empty())
            return d;
    return {};
}

std::string subset_table_difference(const TomlTable& a, const TomlTable& b, const std::string& path) {
    if (subset_position_text(a.source()) != subset_position_text(b.source())) return path + ": table positions differ";
    if (a.size() != b.size()) return path + ": key counts differ";
    for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib) {
        const std::string at = path + "." + ia->first.str();
        if (ia->first.str() != ib->first.str()) return at + ": key order differs from '" + ib->first.str() + "'";
        if (subset_position_text(ia->first.source()) != subset_position_text(ib->first.source()))
            return at + ": key positions differ";
        if (std::string d = subset_node_difference(ia->second, ib->second, at); !d.empty()) return d;
    }
    return {};
}

// Where the subset's reader answers, toml++ reads the text too, into the same document.
std::string subset_against_tomlpp(const std::string& text) {
    const std::optional<TomlTable> fast = parse_toml_subset(text);
    if (!fast) return {};
    try {
        return subset_table_difference(*fast, parse_toml_with_tomlpp(text, "doc.toml"), "");
    } catch (const InputError& e) {
        return std::string("read by the subset, refused by toml++: ") + e.what();
    }
}

std::vector<std::string> subset_shipped_files() {
    std::vector<std::string> out;
    for (const char* dir : {"cases", "tests/data", "bench"})
        for (const auto& e : std::filesystem::recursive_directory_iterator(test::source_path(dir)))
            if (e.is_regular_file() && e.path().extension() == ".toml") out.push_back(e.path().string());
    return out;
}

}  // namespace

TEST_CASE("TOML subset: every shipped file it reads gives toml++'s document", "[toml_subset]") {
    int read = 0;
    for (const std::string& file : subset_shipped_files()) {
        const std::string text = test::slurp(file);
        INFO(file);
        CHECK(subset_against_tomlpp(text).empty());
        read += parse_toml_subset(text) ? 1 : 0;
    }
    CHECK(read >= 40);  // most cases are plain TOML (those with non-ASCII text are not)
    CHECK(parse_toml_subset(test::slurp(test::source_path("cases/thesis/example.toml"))));
}

TEST_CASE("TOML subset: reads what gpuwcrt writes and generates, as toml++ does", "[toml_subset]") {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        RandomWorkloadSpec spec;
        spec.kernels = 8;
        spec.streams = 3;
        spec.staggered_issue = seed % 2 == 0;
        spec.deadlines = true;
        spec.copy_percent = 30;
        spec.high_priority_streams = 1;
        spec.null_stream = seed % 3 == 0;
        spec.interval_percent = 30;
        spec.window_percent = 30;
        spec.after_idle_percent = 30;
        spec.block_time_denominator = 1 + seed % 4;
        const std::string text = workload_to_toml(random_workload(spec, seed));
        INFO(text);
        REQUIRE(parse_toml_subset(text));
        CHECK(subset_against_tomlpp(text).empty());
    }
    const std::string camera = workload_to_toml(camera_pipeline(CameraSpec{3, 8, true, Time(1)}, 7));
    REQUIRE(parse_toml_subset(camera));
    CHECK(subset_against_tomlpp(camera).empty());
    // bench/scale/gen_workload.py, the plain commands' benchmark
    const std::string scale =
        "[[kernel]]\nname = \"K0\"\nblocks = 7\nthreads = 512\nblock_time = \"13/4\"\n"
        "issue = \"3/2\"\n\n[[kernel]]\nname = \"K1\"\nblocks = 20\nthreads = 512\n"
        "block_time = \"1/4\"\nissue = \"0/2\"\n\n";
    REQUIRE(parse_toml_subset(scale));
    CHECK(subset_against_tomlpp(scale).empty());
}

TEST_CASE("TOML subset: positions, key order and values of a document with every construct it reads", "[toml_subset]") {
    const std::string text =
        "# comment\ntitle = \"t\"  # after\n\n  [platform]\nsms = 2\n\n[[kernel]] # k\n\tname=\"K1\"\n"
        "\"quoted key\" = -0\nz = [\n  1, # one\n  2.50,\n]\na = { y = true, x = [], w = {} }\n"
        "f = +1.25\n[[kernel]]\nname = \"K2\"\ne = []\n";
    const std::optional<TomlTable> fast = parse_toml_subset(text);
    REQUIRE(fast);
    CHECK(subset_against_tomlpp(text).empty());
    const TomlArray& kernels = *fast->get("kernel")->as_array();
    REQUIRE(kernels.size() == 2);
    CHECK(subset_position_text(kernels.source()) == "7:1");
    const TomlTable& k1 = *kernels.get(0)->as_table();
    CHECK(k1.begin()->first.str() == "a");  // key order, as toml++ iterates
    CHECK(k1.get("z")->as_array()->get(1)->literal() == "2.50");
    CHECK(k1.get("f")->literal() == "+1.25");
    CHECK(subset_position_text(k1.get("name")->source()) == "8:7");
    CHECK(k1.get("quoted key")->value_exact<std::int64_t>() == 0);
}

TEST_CASE("TOML subset: leaves to toml++ what it does not read", "[toml_subset]") {
    const std::vector<std::string> others = {
        "a = 01",
        "a = 1e5",
        "a = 1_000",
        "a = 0x10",
        "a = 1979-05-27",
        "a = 'literal'",
        "a = \"\"\"m\"\"\"",
        "a = \"x\\n\"",
        "a.b = 1",
        "[a.b]",
        "[ a ]",
        "a = 1\na = 2",
        "[a]\n[a]",
        "a = 1\n[a]",
        "[[a]]\n[a]",
        "a = [1]\n[[a]]",
        "[a]\n[[a]]",
        "a = { b = 1, }",
        "a = { b = 1,\nc = 2 }",
        "a = inf",
        "a = nan",
        "a = 1.",
        "a = .5",
        "a = +",
        "a = \"x\" y",
        "a = 1 2",
        "\xc3\xa9 = 1",
        "a = 1\r\n",
        "a = tru",
        "a = truex",
        "a = 1234567890123456789",
        "a = { b = 1, b = 2 }",
        "a = [1,,2]",
        "a = [,]",
        "a =",
        "= 1",
        "[]",
        "[[]]",
        "a = {",
        "a = [1",
    };
    for (const std::string& text : others) {
        INFO(text);
        CHECK(!parse_toml_subset(text));
    }
    std::string deep = "a = ";
    for (int i = 0; i < 40; ++i) deep += "[";
    for (int i = 0; i < 40; ++i) deep += "]";
    CHECK(!parse_toml_subset(deep));
}

TEST_CASE("TOML subset: on random and mutated documents, where it answers, toml++ agrees", "[toml_subset]") {
    const std::vector<std::string> pieces = {
        "a",     "b",       "name",      "\"q k\"",  " = ",  "=",          " ",     "\t",        "\n",      "# c\n",
        "[x]\n", "[[k]]\n", "[",         "]",        "{",    "}",          ", ",    ",",         "1",       "-2",
        "+3",    "0",       "007",       "1.5",      "0.25", "1e3",        "\"s\"", "\"\"",      "'l'",     "true",
        "false", "[1, 2]",  "{ y = 1 }", "[\n1,\n]", "1_0",  "2024-01-01", ".",     "\"a\\tb\"", "\xc3\xa9"};
    std::mt19937_64 rng(2024);
    int answered = 0;
    for (int round = 0; round < 3000; ++round) {
        std::string text;
        const int n = 1 + static_cast<int>(rng() % 24);
        for (int i = 0; i < n; ++i) text += pieces[rng() % pieces.size()];
        INFO(text);
        CHECK(subset_against_tomlpp(text).empty());
        answered += parse_toml_subset(text) ? 1 : 0;
    }
    const std::string base = test::slurp(test::source_path("cases/thesis/example.toml"));
    const std::string bytes = "[]{}=,.\"#\n 0123456789-+abekt_";
    for (int round = 0; round < 3000; ++round) {
        std::string text = base;
        for (int m = 1 + static_cast<int>(rng() % 3); m > 0; --m) {
            const std::size_t at = rng() % text.size();
            switch (rng() % 3) {
                case 0:
                    text.erase(at, 1);
                    break;
                case 1:
                    text.insert(at, 1, bytes[rng() % bytes.size()]);
                    break;
                default:
                    text[at] = bytes[rng() % bytes.size()];
            }
        }
        INFO(text);
        CHECK(subset_against_tomlpp(text).empty());
        answered += parse_toml_subset(text) ? 1 : 0;
    }
    CHECK(answered >= 300);  // enough answers for the comparison to mean something
}
