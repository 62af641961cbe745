#pragma once
// Typed, located access to a parsed TOML document (model/io/toml_document.hpp). Decimal
// literals are read from their text, so that 0.1 is exactly 1/10.
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "model/io/toml_document.hpp"
#include "model/source_location.hpp"
#include "model/workload.hpp"

namespace gpuwcrt {

class TomlReader {
public:
    TomlReader(const std::string& text, std::string name);

    const TomlTable& root() const { return root_; }
    const std::string& name() const { return name_; }

    // Of a node, a key, a table or an array: where it begins.
    template <class Located>
    SourceLocation where(const Located& x) const {
        const TomlPosition b = x.source().begin;
        return {name_, static_cast<int>(b.line), static_cast<int>(b.column)};
    }
    template <class Located>
    [[noreturn]] void fail(const Located& x, const std::string& message) const {
        throw InputError(where(x), message);
    }

    // Rejects any key of `t` not in `allowed`, at the key's position.
    void only_keys(const TomlTable& t, std::initializer_list<std::string_view> allowed, const std::string& what) const;
    const TomlNode& required(const TomlTable& t, const char* key, const std::string& what) const;

    std::string string(const TomlNode& n, const char* key) const;
    bool boolean(const TomlNode& n, const char* key) const;
    std::int64_t integer(const TomlNode& n, const char* key) const;
    // An integer in [lo, hi]; the message states the range (limits in model/input_limits.hpp).
    std::int64_t integer_in(const TomlNode& n, const char* key, std::int64_t lo, std::int64_t hi) const;
    // A string obeying the name policy (model/name_policy.hpp); `what` begins the message.
    std::string name(const TomlNode& n, const char* key, const std::string& what) const;
    Time time(const TomlNode& n, const char* key) const;             // 4, 1.5, "3/2"
    TimeRange time_range(const TomlNode& n, const char* key) const;  // a time or [lo, hi]
    const TomlTable& table(const TomlNode& n, const char* key) const;
    const TomlArray& array(const TomlNode& n, const char* key) const;

private:
    std::string name_;
    TomlTable root_;
};

}  // namespace gpuwcrt
