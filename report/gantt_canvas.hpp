#pragma once
// The drawing surface shared by the parts of the Gantt chart (gantt_svg.cpp, gantt_lanes.cpp):
// SVG elements as text, and the label space that keeps texts apart.
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "report/chart_context.hpp"
#include "report/gantt_layout.hpp"
#include "sim/schedule.hpp"

namespace gpuwcrt::gantt {

// Layout constants, in pixels.
inline constexpr int left = 70, plot_width = 900, right = 50, canvas_width = left + plot_width + right;
inline constexpr int lane_height = 160;  // one SM's full thread capacity, drawing blocks
inline constexpr int lane_gap = 12, ce_height = 28;
inline constexpr int band_row = 16, band_lane_min = 44;  // drawing bands
inline constexpr int arrow_row = 15, max_launch_rows = 8;

class Canvas {
public:
    Canvas() : space_(TextBox{0, 0, canvas_width, Time(1'000'000'000)}) {}
    void rect(const Time& x, const Time& y, const Time& wd, const Time& ht, const std::string& attrs,
              const std::string& tooltip = "");
    void line(const Time& x1, const Time& y1, const Time& x2, const Time& y2, const std::string& attrs,
              const std::string& tooltip = "");
    // A text that must appear: the layout keeps it apart from the others by construction.
    void text(const Time& x, const Time& y, const std::string& s, int font, Anchor a, const std::string& attrs);
    // A text drawn only where its box is free and inside `inside`; false when left out.
    bool label(const Time& x, const Time& y, const std::string& s, int font, Anchor a, const std::string& attrs,
               const TextBox& inside);
    LabelSpace& space() { return space_; }
    const Time& bottom() const { return bottom_; }  // lowest text so far
    std::string str() const { return body_.str(); }

private:
    void put_text(const Time& x, const Time& y, const std::string& s, int font, Anchor a, const std::string& attrs);
    std::ostringstream body_;
    LabelSpace space_;
    Time bottom_ = 0;
};

struct Chart {
    const Workload& w;
    const Schedule& s;
    const ChartContext& ctx;
    Time end;  // time at the right edge of the plot
    PixelScale xs;
    std::vector<int> kernel_number;  // operation -> its rank among the kernels (file order)
    Canvas c;
    std::optional<std::size_t> deadline_box;
    bool bands = false;     // the SM lanes show one band per kernel and SM instead of each block  // in c.space(): the
                            // deadline line, reserved before the lanes
    int max_band_rows = 0;  // rows of bands per SM lane at most; 0: as many as the bands need
    bool marked(int op) const { return ctx.kind != ChartKind::schedule && ctx.op && *ctx.op == op; }
    std::string unit_suffix() const { return ctx.unit.empty() ? "" : " " + ctx.unit; }
};

// Each returns the y below what it drew.
Time draw_heading(Chart& ch, const std::string& subtitle);  // the title, and the subtitle when not ""
Time draw_sm_lanes(Chart& ch, Time y);
Time draw_ce_lanes(Chart& ch, Time y);
// The bracket over the marked operation's issue..finish and its label; the deadline line is
// drawn by draw_deadline once the lanes' extent is known.
Time draw_marker_row(Chart& ch, Time y);
void draw_deadline(Chart& ch, const Time& top, const Time& bottom);
// The time axis at `y`: ticks at {1, 2, 5} x 10^k, as many as fit without their labels touching.
void draw_time_axis(Chart& ch, const Time& y);
// The SVG file around what `ch` drew, `height` pixels tall, with the fills of the first `fills`
// kernel_fill numbers defined.
std::string svg_document(const Chart& ch, const Time& height, int fills);

}  // namespace gpuwcrt::gantt
