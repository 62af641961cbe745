#pragma once
// Long lists in tables people read (a witness's launch order, the SM of every block): a short
// form that keeps a row within about 120 columns; the whole list is in the JSON and in the
// --witness/--counterexample files, and --wide prints it.
#include <cstddef>
#include <string>
#include <vector>

namespace gpuwcrt {

// The items joined by `sep` when they fit in `width` display columns; otherwise as many
// leading items as fit with the last item after "…", and the count: "t1 t2 … t9 (18 ops)".
// `noun` names the items in the count ("ops", "blocks").
std::string compact_list(const std::vector<std::string>& items, std::size_t width, const std::string& noun,
                         const std::string& sep = " ");

}  // namespace gpuwcrt

namespace gpuwcrt {

// `text` as a bullet item for a terminal: "  - " then the words, wrapped at `width` display
// columns, continuation lines indented under the first word; nothing is cut. A single word
// longer than the line stays whole.
std::string bullet_item(const std::string& text, std::size_t width = 120);

}  // namespace gpuwcrt
