#include "model/io/toml_parse.hpp"

#include <toml++/toml.h>

#include "model/input_limits.hpp"
#include "model/io/toml_subset.hpp"
#include "model/source_location.hpp"

namespace gpuwcrt {
namespace {

TomlPosition position_of(const toml::source_position& p) {
    return {static_cast<std::uint32_t>(p.line), static_cast<std::uint32_t>(p.column)};
}

// The document's lines, to read a decimal literal's text back where toml++ saw it.
class SourceLines {
public:
    explicit SourceLines(const std::string& text) : text_(text) {
        start_.push_back(0);
        for (std::size_t i = 0; i < text_.size(); ++i)
            if (text_[i] == '\n') start_.push_back(i + 1);
    }

    // The literal's text when it lies on one line (a float literal always does), else empty.
    std::string literal(const toml::node& n) const {
        const auto& b = n.source().begin;
        const auto& e = n.source().end;
        if (b.line == 0 || b.line > start_.size() || e.line != b.line) return {};
        const std::size_t from = start_[b.line - 1];
        std::size_t to = text_.find('\n', from);
        if (to == std::string::npos) to = text_.size();
        const std::string_view line(text_.data() + from, to - from);
        if (b.column == 0 || e.column < b.column || e.column - 1 > line.size()) return {};
        return std::string(line.substr(b.column - 1, e.column - b.column));
    }

private:
    const std::string& text_;
    std::vector<std::size_t> start_;  // offsets, not copies of the lines
};

TomlTable from_tomlpp(const toml::table& t, const SourceLines& lines);

TomlNode from_tomlpp(const toml::node& n, const SourceLines& lines) {
    const TomlPosition at = position_of(n.source().begin);
    if (const toml::table* t = n.as_table()) return TomlNode::of(from_tomlpp(*t, lines));
    if (const toml::array* a = n.as_array()) {
        TomlArray out(at);
        out.reserve(a->size());
        for (const toml::node& x : *a) out.push_back(from_tomlpp(x, lines));
        return TomlNode::of(std::move(out));
    }
    if (auto s = n.value_exact<std::string>()) return TomlNode::string(std::move(*s), at);
    if (auto i = n.value_exact<std::int64_t>()) return TomlNode::integer(*i, at);
    if (auto b = n.value_exact<bool>()) return TomlNode::boolean(*b, at);
    if (n.is_floating_point()) return TomlNode::floating(lines.literal(n), at);
    return TomlNode::other(at);  // a date or a time
}

// toml++ iterates a table in key order: the entries stay in it.
TomlTable from_tomlpp(const toml::table& t, const SourceLines& lines) {
    TomlTable out(position_of(t.source().begin));
    for (auto&& [k, v] : t)
        out.add(TomlKey(std::string(k.str()), position_of(k.source().begin)), from_tomlpp(v, lines));
    return out;
}

}  // namespace

TomlTable parse_toml(const std::string& text, const std::string& name) {
    if (std::optional<TomlTable> plain = parse_toml_subset(text)) return std::move(*plain);
    return parse_toml_with_tomlpp(text, name);
}

TomlTable parse_toml_with_tomlpp(const std::string& text, const std::string& name) {
    toml::table root;
    try {
        root = toml::parse(text, name);
    } catch (const toml::parse_error& e) {
        const auto& b = e.source().begin;
        std::string message = "TOML syntax error: " + std::string(e.description());
        // toml++ refuses a float literal beyond IEEE binary64 range before we can read its
        // text exactly (toml_reader.hpp); the same time is accepted written as a string.
        if (message.find("floating-point") != std::string::npos)
            message +=
                " (a TOML float literal must stay below about 1.8e308; write such a time as a string, "
                "e.g. \"1e400\", within the limits of +-" +
                std::to_string(limits::max_time_exponent) + " for the exponent and " +
                std::to_string(limits::max_time_digits) + " digits)";
        throw InputError({name, static_cast<int>(b.line), static_cast<int>(b.column)}, message);
    }
    return from_tomlpp(root, SourceLines(text));
}

}  // namespace gpuwcrt
