#include "model/io/toml_parse.hpp"

#include <algorithm>
#include <toml++/toml.h>

#include "model/input_limits.hpp"
#include "model/name_policy.hpp"
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

// Refuses a key of more than limits::max_toml_depth dotted parts before toml++ reads it: toml++
// builds a table per part and frees them recursively, so that a key of 10^5 parts ends the process
// with a stack overflow. Dots count within one stretch between '=', ',', brackets, braces and line
// ends, outside strings and comments; a value (1.5, a date-time) has one at most.
void check_dotted_depth(const std::string& text, const std::string& name) {
    std::uint32_t line = 1;
    std::size_t line_start = 0;
    int dots = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"' || c == '\'') {  // a string, maybe multi-line: to its closing quote(s)
            const bool triple = text.compare(i, 3, std::string(3, c)) == 0;
            const std::string close = triple ? std::string(3, c) : std::string(1, c);
            std::size_t j = i + close.size();
            while (j < text.size() && text.compare(j, close.size(), close) != 0 && (triple || text[j] != '\n')) {
                if (text[j] == '\n') ++line, line_start = j + 1;
                const bool escape = c == '"' && text[j] == '\\' && j + 1 < text.size() && text[j + 1] != '\n';
                j += escape ? 2 : 1;
            }
            // Past the closing quotes, or onto the line end that cut the string short.
            i = j < text.size() && text[j] == '\n' ? j - 1 : std::min(j + close.size(), text.size()) - 1;
        } else if (c == '#') {
            while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
        } else if (c == '.' && ++dots >= limits::max_toml_depth) {
            int column = 1;
            for (std::size_t k = line_start; k < i; ++k) column += (static_cast<unsigned char>(text[k]) & 0xC0) != 0x80;
            throw InputError({name, static_cast<int>(line), column},
                             "a dotted key of more than " + std::to_string(limits::max_toml_depth) +
                                 " parts: tables nest at most " + std::to_string(limits::max_toml_depth) +
                                 " levels deep");
        } else if (c == '=' || c == ',' || c == '[' || c == ']' || c == '{' || c == '}' || c == '\n') {
            dots = 0;
            if (c == '\n') ++line, line_start = i + 1;
        }
    }
}

// toml++'s tree copied into a TomlTable, refusing a document nested deeper than
// limits::max_toml_depth: toml++ reads a dotted key of any depth, and copying it recursed
// until the stack ran out.
class TreeCopy {
public:
    TreeCopy(const std::string& text, const std::string& name) : lines_(text), name_(name) {}

    // toml++ iterates a table in key order: the entries stay in it.
    TomlTable table(const toml::table& t, int depth) const {
        TomlTable out(position_of(t.source().begin));
        for (auto&& [k, v] : t) {
            const TomlPosition at = position_of(k.source().begin);
            if (depth >= limits::max_toml_depth && (v.is_table() || v.is_array()))
                throw InputError({name_, static_cast<int>(at.line), static_cast<int>(at.column)},
                                 "key " + quoted_name(k.str()) + " nests tables deeper than the limit of " +
                                     std::to_string(limits::max_toml_depth) +
                                     " levels (headers [a.b], dotted keys a.b = 1, inline tables and arrays)");
            out.add(TomlKey(std::string(k.str()), at), node(v, depth + 1));
        }
        return out;
    }

private:
    const SourceLines lines_;
    const std::string& name_;

    TomlNode node(const toml::node& n, int depth) const {
        const TomlPosition at = position_of(n.source().begin);
        if (const toml::table* t = n.as_table()) return TomlNode::of(table(*t, depth));
        if (const toml::array* a = n.as_array()) {
            TomlArray out(at);
            out.reserve(a->size());
            for (const toml::node& x : *a) out.push_back(node(x, depth + 1));
            return TomlNode::of(std::move(out));
        }
        if (auto s = n.value_exact<std::string>()) return TomlNode::string(std::move(*s), at);
        if (auto i = n.value_exact<std::int64_t>()) return TomlNode::integer(*i, at);
        if (auto b = n.value_exact<bool>()) return TomlNode::boolean(*b, at);
        if (n.is_floating_point()) return TomlNode::floating(lines_.literal(n), at);
        return TomlNode::other(at);  // a date or a time
    }
};

}  // namespace

TomlTable parse_toml(const std::string& text, const std::string& name) {
    if (std::optional<TomlTable> plain = parse_toml_subset(text)) return std::move(*plain);
    return parse_toml_with_tomlpp(text, name);
}

TomlTable parse_toml_with_tomlpp(const std::string& text, const std::string& name) {
    check_dotted_depth(text, name);
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
    return TreeCopy(text, name).table(root, 0);
}

}  // namespace gpuwcrt
