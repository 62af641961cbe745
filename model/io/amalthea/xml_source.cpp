#include "model/io/amalthea/xml_source.hpp"

#include <algorithm>
#include <sstream>

namespace gpuwcrt::amalthea {
namespace {

std::string after_colon(const char* qualified) {
    const std::string s = qualified;
    const auto colon = s.find(':');
    return colon == std::string::npos ? s : s.substr(colon + 1);
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// EMF writes names in references percent-encoded (a blank is %20).
std::optional<std::string> percent_decoded(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '%') {
            out.push_back(s[i]);
            continue;
        }
        if (i + 2 >= s.size()) return std::nullopt;
        const int hi = hex_digit(s[i + 1]), lo = hex_digit(s[i + 2]);
        if (hi < 0 || lo < 0) return std::nullopt;
        out.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
    }
    return out;
}

}  // namespace

XmlSource::XmlSource(std::string text, std::string name) : text_(std::move(text)), name_(std::move(name)) {
    line_starts_.push_back(0);
    for (std::size_t i = 0; i < text_.size(); ++i)
        if (text_[i] == '\n') line_starts_.push_back(i + 1);
    // parse_default keeps offsets into the original bytes (no entity expansion moves an element).
    const pugi::xml_parse_result r =
        doc_.load_buffer(text_.data(), text_.size(), pugi::parse_default, pugi::encoding_utf8);
    if (!r) throw InputError(at_offset(r.offset), std::string("malformed XML: ") + r.description());
    if (!doc_.document_element()) throw InputError(at_offset(0), "malformed XML: no root element");
}

SourceLocation XmlSource::at_offset(std::ptrdiff_t offset) const {
    const std::size_t off = offset < 0 ? 0 : std::min(static_cast<std::size_t>(offset), text_.size());
    const auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), off);
    const std::size_t line = static_cast<std::size_t>(it - line_starts_.begin());
    const std::size_t column = off - line_starts_[line - 1] + 1;
    return {name_, static_cast<int>(line), static_cast<int>(column)};
}

SourceLocation XmlSource::where(const pugi::xml_node& node) const {
    // offset_debug() points at the element's name; the '<' before it is what an editor shows.
    const std::ptrdiff_t off = node.offset_debug();
    return at_offset(off > 0 ? off - 1 : off);
}

std::string XmlSource::required(const pugi::xml_node& node, const char* attribute) const {
    const pugi::xml_attribute a = node.attribute(attribute);
    if (!a) throw InputError(where(node), "<" + std::string(node.name()) + "> needs the attribute '" + attribute + "'");
    return a.value();
}

std::string xsi_type(const pugi::xml_node& node) { return after_colon(node.attribute("xsi:type").value()); }

std::string local_name(const pugi::xml_node& node) { return after_colon(node.name()); }

std::optional<Reference> parse_reference(const std::string& text) {
    const auto q = text.find("?type=");
    if (q == std::string::npos || text.find('#') != std::string::npos) return std::nullopt;
    const auto name = percent_decoded(text.substr(0, q));
    if (!name) return std::nullopt;
    return Reference{*name, text.substr(q + 6)};
}

std::vector<std::string> split_references(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string r; in >> r;) out.push_back(r);
    return out;
}

}  // namespace gpuwcrt::amalthea
