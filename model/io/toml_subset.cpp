#include "model/io/toml_subset.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "common/utf8.hpp"

namespace gpuwcrt {
namespace {

// Printable ASCII, tab, newline, and valid UTF-8 from U+00A0 on (no C1 control, no byte order
// mark in front, which toml++ skips): TOML allows more, which this reader leaves to toml++.
// Characters beyond ASCII can only stand in strings and comments here.
bool plain_text(std::string_view s) {
    if (s.substr(0, 3) == "\xEF\xBB\xBF") return false;
    for (std::size_t i = 0; i < s.size();) {
        const char c = s[i];
        if ((c >= 0x20 && c < 0x7F) || c == '\n' || c == '\t') {
            ++i;
            continue;
        }
        const Utf8Char u = decode_utf8(s, i);
        if (u.code_point < 0xA0) return false;
        i += u.length;
    }
    return true;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_bare_key_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || is_digit(c) || c == '_' || c == '-';
}

// What may follow a number or a boolean.
bool ends_scalar(char c) { return c == ' ' || c == '\t' || c == '\n' || c == ',' || c == ']' || c == '}' || c == '#'; }

// Beyond this nesting toml++ refuses the file, so this reader leaves it to toml++ well before.
constexpr int max_depth = 32;

// Every method returns false to give up, leaving the file to toml++.
class SubsetParser {
public:
    explicit SubsetParser(std::string_view text) : s_(text) {}

    std::optional<TomlTable> parse() {
        if (!plain_text(s_)) return std::nullopt;
        while (!at_end()) {
            skip_blanks();
            if (at_end()) break;
            if (s_[i_] == '\n') {
                newline();
                continue;
            }
            if (s_[i_] == '#') {
                skip_comment();
                continue;
            }
            if (!(s_[i_] == '[' ? header() : key_value(*current_, true, 0)) || !end_of_line()) return std::nullopt;
        }
        if (!root_.sort_keys()) return std::nullopt;  // a key given twice
        return std::move(root_);
    }

private:
    std::string_view s_;
    std::size_t i_ = 0;
    std::uint32_t line_ = 1;
    // Columns count characters (as toml++ does), so a line's columns are counted up to where
    // they were last asked: every byte once, whatever the length of the line.
    std::size_t counted_to_ = 0;
    std::uint32_t counted_column_ = 1;
    TomlTable root_{TomlPosition{1, 1}};
    TomlTable* current_ = &root_;                // where `key = value` lines go: the last header's table
    std::vector<std::string> arrays_of_tables_;  // root keys made by [[name]]

    TomlPosition here() {
        for (; counted_to_ < i_; ++counted_to_)
            counted_column_ += (static_cast<unsigned char>(s_[counted_to_]) & 0xC0) != 0x80 ? 1 : 0;
        return {line_, counted_column_};
    }
    bool at_end() const { return i_ >= s_.size(); }
    char peek() const { return at_end() ? '\0' : s_[i_]; }
    void newline() {
        ++i_;
        ++line_;
        counted_to_ = i_;
        counted_column_ = 1;
    }
    void skip_blanks() {
        while (!at_end() && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
    }
    void skip_comment() {
        if (peek() == '#')
            while (!at_end() && s_[i_] != '\n') ++i_;
    }
    // Blanks and a comment, then the line's end.
    bool end_of_line() {
        skip_blanks();
        skip_comment();
        if (at_end()) return true;
        if (s_[i_] != '\n') return false;
        newline();
        return true;
    }
    // Between the values of an array: blanks, and where the array may span lines, comments and newlines.
    void skip_array_space(bool multiline) {
        for (;;) {
            skip_blanks();
            if (!multiline || (peek() != '#' && peek() != '\n')) return;
            skip_comment();
            if (peek() == '\n') newline();
        }
    }

    bool header();
    bool key(TomlKey& out);
    bool key_value(TomlTable& into, bool multiline, int depth);
    bool value(TomlNode& out, bool multiline, int depth);
    bool string_value(TomlNode& out);
    bool word(TomlNode& out);
    bool number(TomlNode& out);
    bool array(TomlNode& out, bool multiline, int depth);
    bool inline_table(TomlNode& out, int depth);
};

// [name] or [[name]], one bare key.
bool SubsetParser::header() {
    const TomlPosition at = here();
    const bool array = i_ + 1 < s_.size() && s_[i_ + 1] == '[';
    i_ += array ? 2 : 1;
    const TomlPosition key_at = here();
    const std::size_t start = i_;
    while (!at_end() && is_bare_key_char(s_[i_])) ++i_;
    if (i_ == start || s_.substr(i_, array ? 2 : 1) != (array ? "]]" : "]")) return false;
    std::string name(s_.substr(start, i_ - start));
    i_ += array ? 2 : 1;
    TomlNode* existing = root_.get(name);
    if (!array) {
        if (existing) return false;  // a table defined twice, or a key of that name
        root_.add(TomlKey(name, key_at), TomlNode::of(TomlTable(at)));
        current_ = root_.get(name)->as_table();
        return true;
    }
    if (!existing) {
        root_.add(TomlKey(name, key_at), TomlNode::of(TomlArray(at)));
        arrays_of_tables_.push_back(name);
        existing = root_.get(name);
    } else if (std::find(arrays_of_tables_.begin(), arrays_of_tables_.end(), name) == arrays_of_tables_.end()) {
        return false;  // a table or a static array of that name
    }
    TomlArray& tables = *existing->as_array();
    TomlTable element(at);
    element.reserve(8);  // an operation's keys, without growing step by step
    tables.push_back(TomlNode::of(std::move(element)));
    current_ = tables.get(tables.size() - 1)->as_table();
    return true;
}

// A bare key, or a quoted one without escapes.
bool SubsetParser::key(TomlKey& out) {
    const TomlPosition at = here();
    if (peek() == '"') {
        const std::size_t start = ++i_;
        while (!at_end() && s_[i_] != '"' && s_[i_] != '\\' && s_[i_] != '\n') ++i_;
        if (peek() != '"') return false;
        out = TomlKey(std::string(s_.substr(start, i_ - start)), at);
        ++i_;
        return true;
    }
    const std::size_t start = i_;
    while (!at_end() && is_bare_key_char(s_[i_])) ++i_;
    if (i_ == start) return false;
    out = TomlKey(std::string(s_.substr(start, i_ - start)), at);
    return true;
}

bool SubsetParser::key_value(TomlTable& into, bool multiline, int depth) {
    TomlKey k;
    if (!key(k)) return false;
    skip_blanks();
    if (peek() != '=') return false;  // a dotted key, among others
    ++i_;
    skip_blanks();
    TomlNode v;
    if (!value(v, multiline, depth)) return false;
    into.add(std::move(k), std::move(v));
    return true;
}

bool SubsetParser::value(TomlNode& out, bool multiline, int depth) {
    if (depth > max_depth) return false;
    switch (peek()) {
        case '"':
            return string_value(out);
        case '[':
            return array(out, multiline, depth + 1);
        case '{':
            return inline_table(out, depth + 1);
        case 't':
        case 'f':
            return word(out);
        default:
            return number(out);
    }
}

// "..." on one line, without escapes ("""...""" and '...' are left to toml++).
bool SubsetParser::string_value(TomlNode& out) {
    const TomlPosition at = here();
    if (s_.substr(i_, 3) == "\"\"\"") return false;
    const std::size_t start = ++i_;
    while (!at_end() && s_[i_] != '"' && s_[i_] != '\\' && s_[i_] != '\n') ++i_;
    if (peek() != '"') return false;
    out = TomlNode::string(std::string(s_.substr(start, i_ - start)), at);
    ++i_;
    return true;
}

bool SubsetParser::word(TomlNode& out) {
    for (const bool v : {true, false}) {
        const std::string_view w = v ? "true" : "false";
        if (s_.substr(i_, w.size()) == w && (i_ + w.size() == s_.size() || ends_scalar(s_[i_ + w.size()]))) {
            out = TomlNode::boolean(v, here());
            i_ += w.size();
            return true;
        }
    }
    return false;
}

// [+-] digits [. digits], no leading zero, no underscore or exponent: an integer of at most 18
// digits, or a decimal of at most 60 characters (far inside a double's range, as toml++ wants).
bool SubsetParser::number(TomlNode& out) {
    const TomlPosition at = here();
    const std::size_t start = i_;
    if (peek() == '+' || peek() == '-') ++i_;
    const std::size_t digits = i_;
    while (!at_end() && is_digit(s_[i_])) ++i_;
    const std::size_t int_digits = i_ - digits;
    if (int_digits == 0 || (int_digits > 1 && s_[digits] == '0')) return false;
    bool fraction = false;
    if (peek() == '.') {
        const std::size_t first = ++i_;
        while (!at_end() && is_digit(s_[i_])) ++i_;
        if (i_ == first) return false;
        fraction = true;
    }
    if (!at_end() && !ends_scalar(s_[i_])) return false;  // an exponent, an underscore, a date, ...
    const std::string_view text = s_.substr(start, i_ - start);
    if (fraction) {
        if (text.size() > 60) return false;
        out = TomlNode::floating(std::string(text), at);
        return true;
    }
    if (int_digits > 18) return false;
    std::int64_t v = 0;
    for (std::size_t k = digits; k < i_; ++k) v = v * 10 + (s_[k] - '0');
    out = TomlNode::integer(s_[start] == '-' ? -v : v, at);
    return true;
}

bool SubsetParser::array(TomlNode& out, bool multiline, int depth) {
    TomlArray a(here());
    ++i_;
    for (;;) {
        skip_array_space(multiline);
        if (peek() == ']') break;  // empty, or after a trailing comma
        TomlNode v;
        if (!value(v, multiline, depth)) return false;
        a.push_back(std::move(v));
        skip_array_space(multiline);
        if (peek() == ']') break;
        if (peek() != ',') return false;
        ++i_;
    }
    ++i_;
    out = TomlNode::of(std::move(a));
    return true;
}

// { key = value, ... } on one line, no trailing comma.
bool SubsetParser::inline_table(TomlNode& out, int depth) {
    TomlTable t(here());
    ++i_;
    skip_blanks();
    if (peek() != '}') {
        for (;;) {
            skip_blanks();
            if (!key_value(t, false, depth)) return false;
            skip_blanks();
            if (peek() == '}') break;
            if (peek() != ',') return false;
            ++i_;
        }
    }
    ++i_;
    out = TomlNode::of(std::move(t));
    return true;
}

}  // namespace

std::optional<TomlTable> parse_toml_subset(std::string_view text) { return SubsetParser(text).parse(); }

}  // namespace gpuwcrt
