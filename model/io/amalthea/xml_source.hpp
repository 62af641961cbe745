#pragma once
// An AMALTHEA .amxmi file parsed with pugixml, with what every reader of it needs: the
// file:line:column of an element (pugixml gives byte offsets), attribute access that makes a
// missing attribute an InputError at its element, xsi:type without its namespace prefix, and
// the resolution of XMI references ("Name?type=Runnable", percent-encoded).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <pugixml.hpp>

#include "model/source_location.hpp"

namespace gpuwcrt::amalthea {

class XmlSource {
public:
    // Throws InputError at the position pugixml reports when the text is not well-formed XML.
    XmlSource(std::string text, std::string name);

    pugi::xml_node root() const { return doc_.document_element(); }
    const std::string& name() const { return name_; }

    // Line and column (both from 1, the column counted in bytes) of the element's name.
    SourceLocation where(const pugi::xml_node& node) const;
    SourceLocation at_offset(std::ptrdiff_t offset) const;

    // The attribute's text; InputError at the element when it is missing.
    std::string required(const pugi::xml_node& node, const char* attribute) const;

private:
    std::string text_;
    std::string name_;
    std::vector<std::size_t> line_starts_;
    pugi::xml_document doc_;
};

// "am:Ticks" -> "Ticks"; "" when the element has no xsi:type.
std::string xsi_type(const pugi::xml_node& node);

// An element's local name ("am:Amalthea" -> "Amalthea").
std::string local_name(const pugi::xml_node& node);

// The referenced element's name and type of an XMI reference "Runnable%201?type=Runnable"
// ({"Runnable 1", "Runnable"}); nullopt for anything else (a reference into another file, "#//@…").
struct Reference {
    std::string name;
    std::string type;
};
std::optional<Reference> parse_reference(const std::string& text);

// The references of a multi-valued reference attribute (separated by blanks).
std::vector<std::string> split_references(const std::string& text);

}  // namespace gpuwcrt::amalthea
