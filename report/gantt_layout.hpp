#pragma once
// Geometry for the Gantt chart, kept apart from the SVG text so it can be tested directly.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "report/chart_context.hpp"
#include "sim/schedule.hpp"

namespace gpuwcrt {

// Per block of `s.blocks` (same index): its lowest thread offset within its SM's lane such
// that blocks running at the same time on the same SM never share a thread range (a block
// ending at t frees its range for one starting at t). Blocks are packed in start order.
std::vector<std::int64_t> pack_block_offsets(const Workload& w, const Schedule& s);

// A tick step of the form {1, 2, 5} x 10^k giving at most `max_ticks` steps over `span` (> 0).
Time tick_step(const Time& span, int max_ticks);

// Drawing coordinates. Pixels are exact rationals too (no floating point anywhere), rounded
// down to 1/100 px only when printed: SVG needs decimals, the schedule keeps its exact times.
struct PixelScale {
    Time origin;    // pixel position of time 0
    Time per_unit;  // pixels per time unit
    // The window drawn, when the chart has one: a time outside it is drawn at its nearer end.
    std::optional<TimeWindow> window = {};
    Time x(const Time& t) const {
        if (window && t < window->from) return origin + window->from * per_unit;
        if (window && t > window->to) return origin + window->to * per_unit;
        return origin + t * per_unit;
    }
    // Whether [from, to] meets the window: what does not is not drawn.
    bool shows(const Time& from, const Time& to) const { return !window || (to >= window->from && from <= window->to); }
    // Whether a span that runs over [from, to] shows more than its end at a window's edge (an
    // instant inside the window shows): a block that ends where the window starts draws nothing.
    bool shows_running(const Time& from, const Time& to) const {
        return !window || (from == to ? shows(from, to) : to > window->from && from < window->to);
    }
};
// The scale that draws `window` (none: [0, end]) over `width` pixels from pixel `left`.
PixelScale window_scale(const Time& left, const Time& width, const Time& end, const std::optional<TimeWindow>& window);
std::string px(const Time& pixels);  // "123.45"

// Text geometry. A label's box is estimated, not measured (no font at hand): every character
// counts text_em_width font sizes wide (wider than the average sans-serif glyph), and the box
// reaches 0.8 font sizes above the baseline and 0.25 below. Labels whose boxes do not overlap
// are therefore apart on screen.
inline const Time text_em_width(66, 100);
enum class Anchor { start, middle, end };
struct TextBox {
    Time x0, y0, x1, y1;  // left, top, right, bottom
    bool overlaps(const TextBox& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
    bool within(const TextBox& o) const { return o.x0 <= x0 && x1 <= o.x1 && o.y0 <= y0 && y1 <= o.y1; }
};
Time text_width(const std::string& s, const Time& font);
TextBox text_box(const Time& x, const Time& baseline, const std::string& s, const Time& font, Anchor a);

// `s` cut to at most `max_width` with a trailing "…" (s itself when it fits); "" when not even
// three characters and the ellipsis fit (fewer say too little).
std::string shorten_to(const std::string& s, const Time& font, const Time& max_width);
// `s` within `max_width`: whole, else its start and its end around "…", so that names that
// differ only at the end (camera_1, camera_11) stay apart; "" as shorten_to.
std::string shorten_middle_to(const std::string& s, const Time& font, const Time& max_width);

// Boxes already taken on the canvas (texts and the lines that must not cross them): a label is
// placed only where it overlaps none of them and stays within the canvas.
class LabelSpace {
public:
    explicit LabelSpace(TextBox canvas) : canvas_(std::move(canvas)) {}
    bool free(const TextBox& b) const;
    std::size_t take(const TextBox& b) {
        taken_.push_back(b);
        return taken_.size() - 1;
    }
    void retake(std::size_t i, const TextBox& b) { taken_.at(i) = b; }  // a box known better later
    bool take_if_free(const TextBox& b);                                // true: taken
    void grow_canvas(const Time& bottom) { canvas_.y1 = std::max(canvas_.y1, bottom); }

private:
    TextBox canvas_;
    std::vector<TextBox> taken_;
};

// Rows for intervals [start, end) (in the order given) so that intervals sharing a row are
// apart: each takes the lowest row whose last interval ended at least `gap` earlier.
std::vector<int> interval_rows(const std::vector<std::pair<Time, Time>>& spans, const Time& gap);

}  // namespace gpuwcrt
