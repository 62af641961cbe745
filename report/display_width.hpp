#pragma once
// How many terminal columns a UTF-8 string takes, for aligning tables: East Asian wide and
// fullwidth characters (CJK, Hangul, fullwidth forms) and emoji take two, combining marks,
// variation selectors and zero-width characters none, everything else one. An invalid byte
// counts as one column (it is shown as one replacement character).
#include <cstddef>
#include <string_view>

namespace gpuwcrt {

std::size_t display_width(std::string_view utf8);

}  // namespace gpuwcrt
