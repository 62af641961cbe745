#include "model/io/toml_reader.hpp"

#include <sstream>

#include "model/input_limits.hpp"
#include "model/name_policy.hpp"

namespace gpuwcrt {

TomlReader::TomlReader(std::string text, std::string name) : name_(std::move(name)), text_(std::move(text)) {
    line_start_.push_back(0);
    for (std::size_t i = 0; i < text_.size(); ++i)
        if (text_[i] == '\n') line_start_.push_back(i + 1);
    try {
        root_ = toml::parse(text_, name_);
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
        throw InputError({name_, static_cast<int>(b.line), static_cast<int>(b.column)}, message);
    }
}

SourceLocation TomlReader::where(const toml::node& n) const {
    const auto& b = n.source().begin;
    return {name_, static_cast<int>(b.line), static_cast<int>(b.column)};
}

SourceLocation TomlReader::where(const toml::key& k) const {
    const auto& b = k.source().begin;
    return {name_, static_cast<int>(b.line), static_cast<int>(b.column)};
}

void TomlReader::fail(const toml::node& n, const std::string& message) const { throw InputError(where(n), message); }

void TomlReader::only_keys(const toml::table& t, std::initializer_list<const char*> allowed,
                           const std::string& what) const {
    for (auto&& [k, v] : t) {
        bool ok = false;
        for (const char* a : allowed) ok = ok || k.str() == a;
        if (!ok) {
            std::string list;
            for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
            throw InputError(where(k),
                             "unknown key " + quoted_name(k.str()) + " in " + what + " (allowed: " + list + ")");
        }
    }
}

const toml::node& TomlReader::required(const toml::table& t, const char* key, const std::string& what) const {
    if (const toml::node* n = t.get(key)) return *n;
    throw InputError(where(t), what + " lacks the required key '" + key + "'");
}

std::string TomlReader::string(const toml::node& n, const char* key) const {
    if (auto s = n.value_exact<std::string>()) return *s;
    fail(n, std::string("'") + key + "' must be a string");
}

bool TomlReader::boolean(const toml::node& n, const char* key) const {
    if (auto b = n.value_exact<bool>()) return *b;
    fail(n, std::string("'") + key + "' must be true or false");
}

std::int64_t TomlReader::integer(const toml::node& n, const char* key) const {
    if (auto i = n.value_exact<std::int64_t>()) return *i;
    fail(n, std::string("'") + key + "' must be an integer");
}

std::int64_t TomlReader::integer_in(const toml::node& n, const char* key, std::int64_t lo, std::int64_t hi) const {
    const std::int64_t v = integer(n, key);
    if (v < lo || v > hi) {
        auto bound = [](std::int64_t x) {
            for (int p = 20; p < 63; ++p)
                if (x == std::int64_t{1} << p) return "2^" + std::to_string(p);
            return std::to_string(x);
        };
        fail(n, std::string("'") + key + "' must be between " + bound(lo) + " and " + bound(hi) + ", got " +
                    std::to_string(v));
    }
    return v;
}

std::string TomlReader::name(const toml::node& n, const char* key, const std::string& what) const {
    std::string s = string(n, key);
    check_name(where(n), s, what);
    return s;
}

std::string TomlReader::literal_text(const toml::node& n) const {
    const auto& b = n.source().begin;
    const auto& e = n.source().end;
    if (b.line == 0 || b.line > line_start_.size() || e.line != b.line) return {};
    const std::size_t from = line_start_[b.line - 1];
    std::size_t to = text_.find('\n', from);
    if (to == std::string::npos) to = text_.size();
    const std::string_view line(text_.data() + from, to - from);
    if (b.column == 0 || e.column < b.column || e.column - 1 > line.size()) return {};
    return std::string(line.substr(b.column - 1, e.column - b.column));
}

Time TomlReader::time(const toml::node& n, const char* key) const {
    if (auto i = n.value_exact<std::int64_t>()) return Time(*i);
    std::string text;
    if (n.is_floating_point()) text = literal_text(n);
    else if (auto s = n.value_exact<std::string>()) text = *s;
    else fail(n, std::string("'") + key + "' must be a number or a string such as \"3/2\"");
    const TimeLiteral t = read_time_literal(text);
    if (t.value) return *t.value;
    // A literal of thousands of digits is shown by its beginning.
    const std::string shown = text.size() > 60 ? text.substr(0, 57) + "..." : text;
    fail(n, std::string("'") + key + "': " + quoted_name(shown) + " " + t.problem);
}

TimeRange TomlReader::time_range(const toml::node& n, const char* key) const {
    if (const toml::array* a = n.as_array()) {
        if (a->size() != 2) fail(n, std::string("'") + key + "' as an interval must be [lo, hi]");
        Time lo = time(*a->get(0), key), hi = time(*a->get(1), key);
        if (lo > hi) fail(n, std::string("'") + key + "': interval [lo, hi] has lo > hi");
        return {lo, hi};
    }
    Time t = time(n, key);
    return {t, t};
}

const toml::table& TomlReader::table(const toml::node& n, const char* key) const {
    if (const toml::table* t = n.as_table()) return *t;
    fail(n, std::string("'") + key + "' must be a table");
}

const toml::array& TomlReader::array(const toml::node& n, const char* key) const {
    if (const toml::array* a = n.as_array()) return *a;
    fail(n, std::string("'") + key + "' must be an array");
}

}  // namespace gpuwcrt
