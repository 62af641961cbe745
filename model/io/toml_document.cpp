#include "model/io/toml_document.hpp"

#include <algorithm>

namespace gpuwcrt {

TomlNode::TomlNode() = default;
TomlNode::TomlNode(TomlNode&&) noexcept = default;
TomlNode& TomlNode::operator=(TomlNode&&) noexcept = default;
TomlNode::~TomlNode() = default;

TomlNode TomlNode::integer(std::int64_t v, TomlPosition at) {
    TomlNode n(Kind::integer, at, {});
    n.integer_ = v;
    return n;
}

TomlNode TomlNode::boolean(bool v, TomlPosition at) {
    TomlNode n(Kind::boolean, at, {});
    n.integer_ = v ? 1 : 0;
    return n;
}

TomlNode TomlNode::of(TomlArray a) {
    TomlNode n(Kind::array, a.source().begin, {});
    n.array_ = std::make_unique<TomlArray>(std::move(a));
    return n;
}

TomlNode TomlNode::of(TomlTable t) {
    TomlNode n(Kind::table, t.source().begin, {});
    n.table_ = std::make_unique<TomlTable>(std::move(t));
    return n;
}

bool TomlArray::is_array_of_tables() const {
    return !items_.empty() &&
           std::all_of(items_.begin(), items_.end(), [](const TomlNode& n) { return n.as_table() != nullptr; });
}

const TomlNode* TomlTable::get(std::string_view key) const {
    // Tables are small (a workload's largest has eleven keys): a scan beats a search.
    for (const Entry& e : entries_)
        if (e.first.str() == key) return &e.second;
    return nullptr;
}

TomlNode* TomlTable::get(std::string_view key) {
    return const_cast<TomlNode*>(static_cast<const TomlTable*>(this)->get(key));
}

namespace {

bool sort_below(TomlNode& n) {
    if (TomlTable* t = n.as_table()) return t->sort_keys();
    if (TomlArray* a = n.as_array())
        for (std::size_t i = 0; i < a->size(); ++i)
            if (!sort_below(*a->get(i))) return false;
    return true;
}

}  // namespace

bool TomlTable::sort_keys() {
    std::sort(entries_.begin(), entries_.end(),
              [](const Entry& a, const Entry& b) { return a.first.str() < b.first.str(); });
    for (std::size_t i = 0; i < entries_.size(); ++i) {
        if (i > 0 && entries_[i - 1].first.str() == entries_[i].first.str()) return false;
        if (!sort_below(entries_[i].second)) return false;
    }
    return true;
}

}  // namespace gpuwcrt
