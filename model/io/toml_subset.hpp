#pragma once
// A fast reader for the plain subset of TOML in which workloads are written, generated and
// written back (model/io/write_toml.cpp): printable ASCII, and any other character in strings and
// comments; `[name]` and `[[name]]`
// headers of one bare key; `key = value` with a bare or plainly quoted key; strings without
// escapes, decimal integers, decimals without exponent, true and false, arrays (over lines),
// inline tables (on one line). It gives up (nullopt) on anything else, valid TOML or not, and
// never reports an error: toml++ then reads the file and says what is wrong, so that what the
// tool accepts and every message stay those of toml++. Where it answers, the document equals the
// one built from toml++'s tree (tests/test_toml_subset.cpp compares them), positions included.
#include <optional>
#include <string_view>

#include "model/io/toml_document.hpp"

namespace gpuwcrt {

std::optional<TomlTable> parse_toml_subset(std::string_view text);

}  // namespace gpuwcrt
