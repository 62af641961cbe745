#include "report/chart_style.hpp"

#include <algorithm>

namespace gpuwcrt {
namespace {

// Kelly's colours of maximum contrast (without white and black), then four that keep away from
// them: teal, magenta, navy, mint.
const char* const colours[chart_colours] = {"#f3c300", "#875692", "#f38400", "#a1caf1", "#be0032", "#c2b280",
                                            "#848482", "#008856", "#e68fac", "#0067a5", "#f99379", "#604e97",
                                            "#f6a600", "#b3446c", "#dcd300", "#882d17", "#8db600", "#654522",
                                            "#e25822", "#2b3d26", "#00958a", "#c71ee0", "#202080", "#6ef0b0"};

int hex(char c) { return c <= '9' ? c - '0' : c - 'a' + 10; }

// Perceived lightness 0..255000 (ITU-R BT.601 weights), in integers.
int lightness(const std::string& c) {
    const int r = hex(c[1]) * 16 + hex(c[2]), g = hex(c[3]) * 16 + hex(c[4]), b = hex(c[5]) * 16 + hex(c[6]);
    return 299 * r + 587 * g + 114 * b;
}

// The marks drawn over the colour, in a 8 x 8 tile.
const char* mark(int pattern) {
    switch (pattern) {
        case 1:
            return "<path d=\"M-2 2 L2 -2 M0 8 L8 0 M6 10 L10 6\" stroke-width=\"2\"/>";  // diagonal
        case 2:
            return "<path d=\"M0 4 H8 M4 0 V8\" stroke-width=\"1.5\"/>";  // grid
        case 3:
            return "<circle cx=\"4\" cy=\"4\" r=\"1.8\" stroke=\"none\"/>";  // dots
        case 4:
            return "<path d=\"M0 2 H8 M0 6 H8\" stroke-width=\"1.5\"/>";  // horizontal
        case 5:
            return "<path d=\"M2 0 V8 M6 0 V8\" stroke-width=\"1.5\"/>";  // vertical
        default:
            return "<path d=\"M-2 6 L2 10 M0 0 L8 8 M6 -2 L10 2\" stroke-width=\"2\"/>";  // anti-diagonal
    }
}

}  // namespace

std::string KernelFill::fill() const {
    if (pattern == 0) return colour;
    return "url(#p" + std::to_string(pattern) + "-" + colour.substr(1) + ")";
}

std::string KernelFill::text_colour() const { return lightness(colour) > 150000 ? "#000" : "#fff"; }

std::string KernelFill::light() const {
    const char* digits = "0123456789abcdef";
    std::string out = "#";
    for (int i = 1; i < 7; i += 2) {
        const int c = hex(colour[i]) * 16 + hex(colour[i + 1]), mixed = (c + 2 * 255) / 3;
        out += digits[mixed / 16];
        out += digits[mixed % 16];
    }
    return out;
}

KernelFill kernel_fill(int n) { return {colours[n % chart_colours], (n / chart_colours) % (chart_patterns + 1)}; }

std::string pattern_defs(int kernels) {
    std::string out;
    for (int n = chart_colours; n < std::min(kernels, chart_colours * (chart_patterns + 1)); ++n) {
        const KernelFill f = kernel_fill(n);
        const std::string ink = f.text_colour() == "#fff" ? "#fff" : "#000";
        out += "<pattern id=\"p" + std::to_string(f.pattern) + "-" + f.colour.substr(1) +
               "\" patternUnits=\"userSpaceOnUse\" width=\"8\" height=\"8\"><rect width=\"8\" height=\"8\" fill=\"" +
               f.colour + "\"/><g stroke=\"" + ink + "\" fill=\"" + ink + "\" opacity=\"0.4\">" + mark(f.pattern) +
               "</g></pattern>\n";
    }
    return out;
}

}  // namespace gpuwcrt
