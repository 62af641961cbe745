#pragma once
// Typed, located access to a parsed TOML document. Decimal literals are re-read from the
// source text so that 0.1 is exactly 1/10 (toml++ itself would hand us a binary floating-point value).
#include <initializer_list>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "model/source_location.hpp"
#include "model/workload.hpp"

namespace gpuwcrt {

class TomlReader {
public:
    TomlReader(std::string text, std::string name);

    const toml::table& root() const { return root_; }
    const std::string& name() const { return name_; }

    SourceLocation where(const toml::node& n) const;
    SourceLocation where(const toml::key& k) const;
    [[noreturn]] void fail(const toml::node& n, const std::string& message) const;

    // Rejects any key of `t` not in `allowed`, at the key's position.
    void only_keys(const toml::table& t, std::initializer_list<const char*> allowed, const std::string& what) const;
    const toml::node& required(const toml::table& t, const char* key, const std::string& what) const;

    std::string string(const toml::node& n, const char* key) const;
    bool boolean(const toml::node& n, const char* key) const;
    std::int64_t integer(const toml::node& n, const char* key) const;
    // An integer in [lo, hi]; the message states the range (limits in model/input_limits.hpp).
    std::int64_t integer_in(const toml::node& n, const char* key, std::int64_t lo, std::int64_t hi) const;
    // A string obeying the name policy (model/name_policy.hpp); `what` begins the message.
    std::string name(const toml::node& n, const char* key, const std::string& what) const;
    Time time(const toml::node& n, const char* key) const;             // 4, 1.5, "3/2"
    TimeRange time_range(const toml::node& n, const char* key) const;  // a time or [lo, hi]
    const toml::table& table(const toml::node& n, const char* key) const;
    const toml::array& array(const toml::node& n, const char* key) const;

private:
    std::string literal_text(const toml::node& n) const;

    std::string name_;
    std::string text_;
    std::vector<std::size_t> line_start_;  // offsets, not copies of the lines: 10^6 kernels are 6·10^6 lines
    toml::table root_;
};

}  // namespace gpuwcrt
