#pragma once
// The one entry from TOML text to a TomlTable: the plain subset's reader (model/io/toml_subset.hpp)
// where it answers, toml++ otherwise, whose tree is then copied into the same document. A
// syntax error is toml++'s, as an InputError at its `file:line:column`.
#include <string>

#include "model/io/toml_document.hpp"

namespace gpuwcrt {

// `name`: the file's name in messages.
TomlTable parse_toml(const std::string& text, const std::string& name);

// toml++ alone, whatever the text: parse_toml's fallback, and the reference the subset's reader
// is tested against.
TomlTable parse_toml_with_tomlpp(const std::string& text, const std::string& name);

}  // namespace gpuwcrt
