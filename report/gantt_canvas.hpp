#pragma once
// The drawing surface shared by the parts of the Gantt chart (gantt_svg.cpp, gantt_lanes.cpp):
// SVG elements as text, and the label space that keeps texts apart.
#include <algorithm>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "report/chart_context.hpp"
#include "report/gantt_layout.hpp"
#include "sim/schedule.hpp"

namespace gpuwcrt::gantt {

// Layout constants, in pixels. The plot starts after the column of lane titles, as wide as the
// widest title needs (title_column), never narrower than min_left.
inline constexpr int min_left = 70, plot_width = 900, right = 50;
// The widest lane title drawn whole; a longer one is cut in the middle with "…" and its whole
// text goes in a tooltip. About 27 characters of a bold 10 px title.
inline constexpr int max_title_width = 200;
inline constexpr int lane_height = 160;  // one SM's full thread capacity, drawing blocks
inline constexpr int lane_gap = 12, ce_height = 28;
inline constexpr int band_row = 16, band_lane_min = 44;  // drawing bands
inline constexpr int arrow_row = 15, max_launch_rows = 8;

class Canvas {
public:
    explicit Canvas(int width) : width_(width), space_(TextBox{0, 0, width, Time(1'000'000'000)}) {}
    int width() const { return width_; }
    void rect(const Time& x, const Time& y, const Time& wd, const Time& ht, const std::string& attrs,
              const std::string& tooltip = "");
    void line(const Time& x1, const Time& y1, const Time& x2, const Time& y2, const std::string& attrs,
              const std::string& tooltip = "");
    // A text that must appear: the layout keeps it apart from the others by construction.
    void text(const Time& x, const Time& y, const std::string& s, int font, Anchor a, const std::string& attrs);
    // A text drawn only where its box is free and inside `inside`; false when left out.
    // `whole` when `s` is a shortened form of it: the text carries `whole` in a tooltip, so that
    // no name is cut without a way to read it.
    bool label(const Time& x, const Time& y, const std::string& s, int font, Anchor a, const std::string& attrs,
               const TextBox& inside, const std::string& whole = "");
    // `s` within `max_width` (cut in the middle when `middle`, else at the end), the whole of it
    // in a tooltip when cut.
    void fitted_text(const Time& x, const Time& y, const std::string& s, int font, Anchor a, const std::string& attrs,
                     const Time& max_width, bool middle = false);
    LabelSpace& space() { return space_; }
    const Time& bottom() const { return bottom_; }  // lowest text so far
    std::string str() const { return body_.str(); }

private:
    void put_text(const Time& x, const Time& y, const std::string& s, int font, Anchor a, const std::string& attrs,
                  const std::string& whole = "");
    int width_;
    std::ostringstream body_;
    LabelSpace space_;
    Time bottom_ = 0;
};

// A lane title: its text, font size and whether it is bold.
struct LaneTitle {
    std::string text;
    int font = 10;
    bool bold = true;
};
// The pixel where the plot starts: 8 px of margin, the widest title (up to max_title_width), 10 px.
int title_column(const std::vector<LaneTitle>& titles);
// The width a lane title may take in a chart whose plot starts at `left`.
inline Time title_room(int left) { return Time(left - 18); }
// The width `t` takes; bold glyphs count a tenth wider.
Time lane_title_width(const LaneTitle& t);

struct Chart {
    Chart(const Workload& w_, const Schedule& s_, const ChartContext& ctx_, const Time& end_,
          const std::optional<TimeWindow>& window, int left_)
        : w(w_),
          s(s_),
          ctx(ctx_),
          end(end_),
          left(left_),
          xs(window_scale(left_, plot_width, end_, window)),
          c(left_ + plot_width + right) {
        for (const Operation& o : w.ops) sorted_names.push_back(o.name);
        std::sort(sorted_names.begin(), sorted_names.end());
    }
    const Workload& w;
    const Schedule& s;
    const ChartContext& ctx;
    Time end;  // time at the right edge of the plot
    int left;  // the plot's left edge, after the lane titles
    PixelScale xs;
    std::vector<int> kernel_number;         // operation -> its rank among the kernels (file order)
    std::vector<std::string> sorted_names;  // of the operations, to tell whether a cut name still names one
    Canvas c;
    std::optional<std::size_t> deadline_box;  // in c.space(): the deadline line, reserved before the lanes
    bool bands = false;                       // the SM lanes show one band per kernel and SM instead of each block
    // Rows of bands per SM lane at most (the height a reader scrolls through); bands that would
    // need more share the last row, their tooltips telling them apart, and the legend says so.
    int max_band_rows = 24;
    bool band_rows_cut = false;
    int right_edge() const { return left + plot_width; }
    bool marked(int op) const { return ctx.kind != ChartKind::schedule && ctx.op && *ctx.op == op; }
    std::string unit_suffix() const { return ctx.unit.empty() ? "" : " " + ctx.unit; }
};

// The titles of a Gantt chart's own lanes (SMs, copy engines) and the line under an SM's name.
std::vector<LaneTitle> sm_lane_titles(const Workload& w);
std::string sm_threads_title(const Workload& w);  // "2048 thr"
// A lane title at baseline `y` in the title column, cut in the middle to fit (whole in its tooltip).
void lane_title(Chart& ch, const Time& y, const LaneTitle& t, const std::string& attrs);

// The legend under the plot: entries in columns from baseline `y` (returns the y below them),
// and notes of one line each (returns the y below it).
struct LegendEntry {
    std::string fill;  // the swatch's fill attribute
    std::string text;
};
inline constexpr std::size_t max_legend_entries = 48;  // of operations or streams; the rest are counted
Time draw_legend_entries(Chart& ch, const std::vector<LegendEntry>& entries, Time y);
Time draw_note(Chart& ch, const Time& y, const std::string& text);
// Says that bands shared the last row of an SM lane, when they did.
Time draw_band_rows_note(Chart& ch, const Time& y);

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
