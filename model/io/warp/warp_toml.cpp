#include "model/io/warp/warp_toml.hpp"

#include "model/io/read_input.hpp"
#include "model/io/toml_reader.hpp"

namespace gpuwcrt {
namespace {

// Limits: model/warp/warp_model.hpp, warp_limits.
int positive(const TomlReader& r, const TomlNode& n, const char* key, int most) {
    const std::int64_t v = r.integer(n, key);
    if (v <= 0 || v > most)
        r.fail(n, std::string("'") + key + "' must be in 1.." + std::to_string(most) + ", got " + std::to_string(v));
    return static_cast<int>(v);
}

const TomlArray& tables(const TomlReader& r, const char* key) {
    const TomlNode* n = r.root().get(key);
    if (!n) throw InputError({r.name(), 1, 1}, std::string("the file lacks [[") + key + "]] tables");
    return r.array(*n, key);
}

void read_units(const TomlReader& r, WarpMachine& m) {
    for (const auto& n : tables(r, "unit")) {
        const TomlTable& t = r.table(n, "unit");
        r.only_keys(t, {"name", "capacity"}, "[[unit]]");
        WarpUnit u;
        u.name = r.string(r.required(t, "name", "[[unit]]"), "name");
        u.capacity = positive(r, r.required(t, "capacity", "[[unit]]"), "capacity", warp_limits::capacity);
        for (const auto& other : m.units)
            if (other.name == u.name) r.fail(*t.get("name"), "unit '" + u.name + "' is defined twice");
        m.units.push_back(u);
    }
}

void read_classes(const TomlReader& r, WarpMachine& m) {
    for (const auto& n : tables(r, "class")) {
        const TomlTable& t = r.table(n, "class");
        r.only_keys(t, {"letter", "unit", "latency"}, "[[class]]");
        const TomlNode& ln = r.required(t, "letter", "[[class]]");
        const std::string letter = r.string(ln, "letter");
        if (letter.size() != 1 || letter == ".")
            r.fail(ln, "'letter' must be one character other than '.' (it is printed in the schedule)");
        if (m.class_index(letter[0]) >= 0) r.fail(ln, "class '" + letter + "' is defined twice");
        const TomlNode& un = r.required(t, "unit", "[[class]]");
        const std::string unit = r.string(un, "unit");
        int index = -1;
        for (std::size_t i = 0; i < m.units.size(); ++i)
            if (m.units[i].name == unit) index = static_cast<int>(i);
        if (index < 0) r.fail(un, "unknown unit '" + unit + "'");
        WarpClass c{letter[0], index, 1};
        if (const TomlNode* lat = t.get("latency")) c.latency = positive(r, *lat, "latency", warp_limits::latency);
        m.classes.push_back(c);
    }
}

std::vector<int> read_sequence(const TomlReader& r, const TomlTable& t, const char* key, const WarpMachine& m,
                               bool required) {
    std::vector<int> out;
    const TomlNode* n = t.get(key);
    if (!n) {
        if (required) r.required(t, key, "[program]");
        return out;
    }
    for (const auto& item : r.array(*n, key)) {
        const std::string s = r.string(item, key);
        const int c = s.size() == 1 ? m.class_index(s[0]) : -1;
        if (c < 0) r.fail(item, "'" + s + "' is not a [[class]] letter");
        out.push_back(c);
    }
    if (required && out.empty()) r.fail(*n, std::string("'") + key + "' must not be empty");
    return out;
}

}  // namespace

WarpSpec load_warp_spec_text(const std::string& text, const std::string& name) {
    TomlReader r(text, name);
    r.only_keys(r.root(), {"warp_size", "issue_limit", "rep", "fairness", "unit", "class", "program"},
                "the warp model file");
    WarpSpec spec;
    if (const TomlNode* n = r.root().get("warp_size"))
        spec.machine.warp_size = positive(r, *n, "warp_size", warp_limits::warp_size);
    if (const TomlNode* n = r.root().get("issue_limit"))
        spec.machine.issue_limit = positive(r, *n, "issue_limit", warp_limits::capacity);
    if (const TomlNode* n = r.root().get("rep")) spec.rep = positive(r, *n, "rep", warp_limits::rep);
    if (const TomlNode* n = r.root().get("fairness")) {
        spec.fairness = parse_warp_fairness(r.string(*n, "fairness"));
        if (!spec.fairness) r.fail(*n, "'fairness' must be \"subblock\", \"strict\" or \"none\"");
    }
    read_units(r, spec.machine);
    read_classes(r, spec.machine);
    const TomlNode& pn = r.required(r.root(), "program", "the warp model file");
    const TomlTable& p = r.table(pn, "program");
    r.only_keys(p, {"prologue", "body", "epilogue"}, "[program]");
    spec.program.prologue = read_sequence(r, p, "prologue", spec.machine, false);
    spec.program.body = read_sequence(r, p, "body", spec.machine, true);
    spec.program.epilogue = read_sequence(r, p, "epilogue", spec.machine, false);
    if (!warp_program_length(spec.program, spec.rep.value_or(1))) {
        const TomlNode* rep = r.root().get("rep");
        r.fail(rep ? *rep : pn, "the program is longer than " + std::to_string(warp_limits::program_length) +
                                    " instructions (prologue + rep x body + epilogue), the limit of the warp engines");
    }
    return spec;
}

WarpSpec load_warp_spec_file(const std::string& path) { return load_warp_spec_text(read_input_file(path), path); }

}  // namespace gpuwcrt
