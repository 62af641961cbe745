#pragma once
// A parsed TOML document as the loaders read it: tables, arrays and values, each with the line
// and column where it begins (for `file:line:column` messages), tables iterated in key order as
// toml++ does, decimal literals kept as their text so that 0.1 is read exactly as 1/10. It is
// built either by the parser of the plain subset of TOML that workloads use
// (model/io/toml_subset.hpp), or from toml++'s tree for anything else (model/io/toml_parse.cpp),
// so that the loaders see one document whichever parser read the file.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace gpuwcrt {

// 1-based, as toml++ counts: a column is a character (a tab is one).
struct TomlPosition {
    std::uint32_t line = 0, column = 0;
};
struct TomlRegion {
    TomlPosition begin;
};

class TomlKey {
public:
    TomlKey() = default;
    TomlKey(std::string name, TomlPosition at) : name_(std::move(name)), at_{at} {}
    const std::string& str() const { return name_; }
    TomlRegion source() const { return at_; }

private:
    std::string name_;
    TomlRegion at_;
};

class TomlNode;
class TomlTable;
class TomlArray;

class TomlNode {
public:
    // A date or a time (which no workload key takes) is `other`: every typed read refuses it.
    enum class Kind { string, integer, floating, boolean, array, table, other };

    TomlNode();
    // Out of line: the tables and arrays a node holds are complete only below.
    TomlNode(TomlNode&&) noexcept;
    TomlNode& operator=(TomlNode&&) noexcept;
    ~TomlNode();
    static TomlNode string(std::string s, TomlPosition at) { return TomlNode(Kind::string, at, std::move(s)); }
    // `text`: the literal as written ("1.5"), read exactly by TomlReader::time.
    static TomlNode floating(std::string text, TomlPosition at) {
        return TomlNode(Kind::floating, at, std::move(text));
    }
    static TomlNode integer(std::int64_t v, TomlPosition at);
    static TomlNode boolean(bool v, TomlPosition at);
    static TomlNode other(TomlPosition at) { return TomlNode(Kind::other, at, {}); }
    static TomlNode of(TomlArray a);  // at the array's position
    static TomlNode of(TomlTable t);

    Kind kind() const { return kind_; }
    TomlRegion source() const { return at_; }
    bool is_floating_point() const { return kind_ == Kind::floating; }
    const std::string& literal() const { return text_; }  // a float's text, a string's value
    const TomlTable* as_table() const { return kind_ == Kind::table ? table_.get() : nullptr; }
    const TomlArray* as_array() const { return kind_ == Kind::array ? array_.get() : nullptr; }
    TomlTable* as_table() { return kind_ == Kind::table ? table_.get() : nullptr; }
    TomlArray* as_array() { return kind_ == Kind::array ? array_.get() : nullptr; }

    // The value when the node holds exactly that type (std::string, std::int64_t or bool), as
    // toml++'s value_exact: an integer is no string, a float no integer.
    template <class T>
    std::optional<T> value_exact() const {
        if constexpr (std::is_same_v<T, std::string>) {
            if (kind_ == Kind::string) return text_;
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
            if (kind_ == Kind::integer) return integer_;
        } else if constexpr (std::is_same_v<T, bool>) {
            if (kind_ == Kind::boolean) return integer_ != 0;
        } else {
            static_assert(std::is_same_v<T, void>, "value_exact: std::string, std::int64_t or bool");
        }
        return std::nullopt;
    }

private:
    TomlNode(Kind k, TomlPosition at, std::string text) : kind_(k), at_{at}, text_(std::move(text)) {}

    Kind kind_ = Kind::other;
    TomlRegion at_;
    std::string text_;
    std::int64_t integer_ = 0;
    std::unique_ptr<TomlTable> table_;
    std::unique_ptr<TomlArray> array_;
};

class TomlArray {
public:
    explicit TomlArray(TomlPosition at = {}) : at_{at} {}
    TomlRegion source() const { return at_; }
    std::size_t size() const { return items_.size(); }
    const TomlNode* get(std::size_t i) const { return i < items_.size() ? &items_[i] : nullptr; }
    TomlNode* get(std::size_t i) { return i < items_.size() ? &items_[i] : nullptr; }
    auto begin() const { return items_.begin(); }
    auto end() const { return items_.end(); }
    // Every element a table (at least one), as toml++'s is_array_of_tables.
    bool is_array_of_tables() const;
    void push_back(TomlNode n) { items_.push_back(std::move(n)); }
    void reserve(std::size_t n) { items_.reserve(n); }

private:
    TomlRegion at_;
    std::vector<TomlNode> items_;
};

class TomlTable {
public:
    using Entry = std::pair<TomlKey, TomlNode>;

    explicit TomlTable(TomlPosition at = {}) : at_{at} {}
    TomlRegion source() const { return at_; }
    const TomlNode* get(std::string_view key) const;
    TomlNode* get(std::string_view key);
    bool contains(std::string_view key) const { return get(key) != nullptr; }
    std::size_t size() const { return entries_.size(); }
    // In key order (as toml++ iterates), once sort_keys has run.
    auto begin() const { return entries_.begin(); }
    auto end() const { return entries_.end(); }
    // Adds an entry without looking for its key: sort_keys finds a key given twice.
    void add(TomlKey key, TomlNode value) { entries_.emplace_back(std::move(key), std::move(value)); }
    void reserve(std::size_t n) { entries_.reserve(n); }
    // Puts this table and every table below it in key order; false when a table has a key twice.
    bool sort_keys();

private:
    TomlRegion at_;
    std::vector<Entry> entries_;
};

}  // namespace gpuwcrt
