#pragma once
// Kernel fills for charts: 24 colours of distinct hue and lightness, then the same colours
// under a pattern (stripes, hatching, dots), so that kernels in file order look different for
// 24 x (1 + patterns) kernels; beyond that the fills repeat.
#include <string>

namespace gpuwcrt {

inline constexpr int chart_colours = 24;
inline constexpr int chart_patterns = 6;  // besides the plain fill

struct KernelFill {
    std::string colour;               // "#rrggbb"
    int pattern = 0;                  // 0: plain; 1..chart_patterns: see pattern_defs
    std::string fill() const;         // attribute value: the colour or "url(#pN-M)"
    std::string text_colour() const;  // black or white, whichever reads on the colour
    // The colour a third as strong on white, for the background of what the colour marks (an
    // explicit colour: not every SVG renderer applies opacity).
    std::string light() const;
};

// The n-th kernel in file order (0-based).
KernelFill kernel_fill(int n);

// <pattern> elements (for a <defs>) used by the first `kernels` fills.
std::string pattern_defs(int kernels);

}  // namespace gpuwcrt
