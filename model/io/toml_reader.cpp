#include "model/io/toml_reader.hpp"

#include <algorithm>

#include "model/io/toml_parse.hpp"
#include "model/name_policy.hpp"

namespace gpuwcrt {

TomlReader::TomlReader(const std::string& text, std::string name)
    : name_(std::move(name)), root_(parse_toml(text, name_)) {}

void TomlReader::only_keys(const TomlTable& t, std::initializer_list<std::string_view> allowed,
                           const std::string& what) const {
    for (auto&& [k, v] : t) {
        const bool ok = std::any_of(allowed.begin(), allowed.end(), [&](std::string_view a) { return k.str() == a; });
        if (!ok) {
            std::string list;
            for (std::string_view a : allowed) list += std::string(list.empty() ? "" : ", ") + std::string(a);
            throw InputError(where(k),
                             "unknown key " + quoted_name(k.str()) + " in " + what + " (allowed: " + list + ")");
        }
    }
}

const TomlNode& TomlReader::required(const TomlTable& t, const char* key, const std::string& what) const {
    if (const TomlNode* n = t.get(key)) return *n;
    throw InputError(where(t), what + " lacks the required key '" + key + "'");
}

std::string TomlReader::string(const TomlNode& n, const char* key) const {
    if (auto s = n.value_exact<std::string>()) return *s;
    fail(n, std::string("'") + key + "' must be a string");
}

bool TomlReader::boolean(const TomlNode& n, const char* key) const {
    if (auto b = n.value_exact<bool>()) return *b;
    fail(n, std::string("'") + key + "' must be true or false");
}

std::int64_t TomlReader::integer(const TomlNode& n, const char* key) const {
    if (auto i = n.value_exact<std::int64_t>()) return *i;
    fail(n, std::string("'") + key + "' must be an integer");
}

std::int64_t TomlReader::integer_in(const TomlNode& n, const char* key, std::int64_t lo, std::int64_t hi) const {
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

std::string TomlReader::name(const TomlNode& n, const char* key, const std::string& what) const {
    std::string s = string(n, key);
    check_name(where(n), s, what);
    return s;
}

Time TomlReader::time(const TomlNode& n, const char* key) const {
    if (auto i = n.value_exact<std::int64_t>()) return Time(*i);
    // A decimal's text as written, or a string's value.
    if (!n.is_floating_point() && n.kind() != TomlNode::Kind::string)
        fail(n, std::string("'") + key + "' must be a number or a string such as \"3/2\"");
    const std::string& text = n.literal();
    TimeLiteral t = read_time_literal(text);
    if (t.value) return std::move(*t.value);
    // A literal of thousands of digits is shown by its beginning.
    const std::string shown = text.size() > 60 ? text.substr(0, 57) + "..." : text;
    fail(n, std::string("'") + key + "': " + quoted_name(shown) + " " + t.problem);
}

TimeRange TomlReader::time_range(const TomlNode& n, const char* key) const {
    if (const TomlArray* a = n.as_array()) {
        if (a->size() != 2) fail(n, std::string("'") + key + "' as an interval must be [lo, hi]");
        Time lo = time(*a->get(0), key), hi = time(*a->get(1), key);
        if (time_less(hi, lo)) fail(n, std::string("'") + key + "': interval [lo, hi] has lo > hi");
        return {std::move(lo), std::move(hi)};
    }
    Time t = time(n, key);
    return {t, t};
}

const TomlTable& TomlReader::table(const TomlNode& n, const char* key) const {
    if (const TomlTable* t = n.as_table()) return *t;
    fail(n, std::string("'") + key + "' must be a table");
}

const TomlArray& TomlReader::array(const TomlNode& n, const char* key) const {
    if (const TomlArray* a = n.as_array()) return *a;
    fail(n, std::string("'") + key + "' must be an array");
}

}  // namespace gpuwcrt
