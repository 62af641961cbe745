#pragma once
// One policy for every name that enters gpuwcrt (stream and operation names in workload TOML,
// examiner labels, names in [scenario] and [[expect]]), so that a name can always be echoed to a
// terminal, an SVG or a TOML file, and typed in --order a,b / --bound NAME=T. A name is
//   - non-empty, at most limits::max_name_bytes (1024) bytes, valid UTF-8,
//   - free of control characters: C0 (U+0000-U+001F), DEL, C1 (U+0080-U+009F), and the
//     line separators and bidirectional controls that change how following text is shown
//     (U+2028, U+2029, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069),
//   - without leading or trailing white space,
//   - without ',' or '=' (they separate names and values on the command line).
// docs/decisions/0012-input-limits-and-names.md "Names" says why.
#include <optional>
#include <string>
#include <string_view>

#include "model/source_location.hpp"

namespace gpuwcrt {

// Why `name` breaks the policy ("is empty", "contains ',' ..."), or nullopt when it is fine.
std::optional<std::string> name_problem(std::string_view name);

// Throws InputError(where, "<what> <quoted name> <problem>") when the name breaks the policy.
void check_name(const SourceLocation& where, std::string_view name, const std::string& what);

// The name in single quotes for a message, with every byte or character the policy forbids
// written as an escape (\x1b, \u202e), so that quoting bad input never echoes it raw; a name
// over the length limit as its first 64 bytes and "...".
std::string quoted_name(std::string_view name);

// A cuda_scheduling_examiner label as a name: ',' becomes ';' and '=' becomes ':', edge white
// space is dropped (real configs have labels such as "Released 3rd, could cut ahead"). Labels
// that no mapping can rescue (empty, control characters, invalid UTF-8) are left to
// check_name. `changed` is set when the result differs from the label.
std::string name_from_label(std::string_view label, bool& changed);

}  // namespace gpuwcrt
