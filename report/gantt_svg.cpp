#include "report/gantt_svg.hpp"

#include <algorithm>

#include "report/chart_style.hpp"
#include "report/contexts/context_lane.hpp"
#include "report/gantt_canvas.hpp"

namespace gpuwcrt {
namespace gantt {

namespace {

const char* anchor_name(Anchor a) { return a == Anchor::start ? "start" : a == Anchor::middle ? "middle" : "end"; }

std::string with_tooltip(const std::string& element, const std::string& attrs, const std::string& tooltip) {
    if (tooltip.empty()) return "<" + element + " " + attrs + "/>\n";
    return "<" + element + " " + attrs + "><title>" + xml_escape(tooltip) + "</title></" + element + ">\n";
}

}  // namespace

void Canvas::rect(const Time& x, const Time& y, const Time& wd, const Time& ht, const std::string& attrs,
                  const std::string& tooltip) {
    body_ << with_tooltip(
        "rect", "x=\"" + px(x) + "\" y=\"" + px(y) + "\" width=\"" + px(wd) + "\" height=\"" + px(ht) + "\" " + attrs,
        tooltip);
}

void Canvas::line(const Time& x1, const Time& y1, const Time& x2, const Time& y2, const std::string& attrs,
                  const std::string& tooltip) {
    const std::string line =
        "<line x1=\"" + px(x1) + "\" y1=\"" + px(y1) + "\" x2=\"" + px(x2) + "\" y2=\"" + px(y2) + "\" " + attrs + "/>";
    body_ << line << '\n';
    if (tooltip.empty()) return;
    // The tooltip goes on an unpainted box around the line: ImageMagick's own SVG renderer draws
    // no line that has a child element (nor nested groups), browsers hover the box.
    const Time x0 = std::min(x1, x2) - 2, y0 = std::min(y1, y2) - 2;
    body_ << with_tooltip("rect",
                          "x=\"" + px(x0) + "\" y=\"" + px(y0) + "\" width=\"" + px(abs(x2 - x1) + 4) + "\" height=\"" +
                              px(abs(y2 - y1) + 4) + "\" fill=\"none\" stroke=\"none\" pointer-events=\"all\"",
                          tooltip);
}

void Canvas::put_text(const Time& x, const Time& y, const std::string& s, int font, Anchor a, const std::string& attrs,
                      const std::string& whole) {
    const TextBox b = text_box(x, y, s, font, a);
    space_.take(b);
    bottom_ = std::max(bottom_, b.y1);
    // A shortened text sits in a group that carries the whole one: a <title> inside the <text>
    // would be drawn by some renderers.
    const bool cut = !whole.empty() && whole != s;
    if (cut) body_ << "<g><title>" << xml_escape(whole) << "</title>";
    body_ << "<text x=\"" << px(x) << "\" y=\"" << px(y) << "\" font-size=\"" << font << "\" text-anchor=\""
          << anchor_name(a) << "\" " << attrs << ">" << xml_escape(s) << "</text>" << (cut ? "</g>\n" : "\n");
}

void Canvas::text(const Time& x, const Time& y, const std::string& s, int font, Anchor a, const std::string& attrs) {
    put_text(x, y, s, font, a, attrs);
}

bool Canvas::label(const Time& x, const Time& y, const std::string& s, int font, Anchor a, const std::string& attrs,
                   const TextBox& inside, const std::string& whole) {
    const TextBox b = text_box(x, y, s, font, a);
    if (s.empty() || !b.within(inside) || !space_.free(b)) return false;
    put_text(x, y, s, font, a, attrs, whole);
    return true;
}

void Canvas::fitted_text(const Time& x, const Time& y, const std::string& s, int font, Anchor a,
                         const std::string& attrs, const Time& max_width, bool middle) {
    put_text(x, y, middle ? shorten_middle_to(s, font, max_width) : shorten_to(s, font, max_width), font, a, attrs, s);
}

namespace {

Time chart_end(const Workload& w, const Schedule& s, const ChartContext& ctx) {
    Time end = 0;
    for (const OpTiming& o : s.ops) end = std::max({end, o.finish, o.issue});
    if (ctx.kind != ChartKind::schedule && ctx.op && ctx.deadline && *ctx.op < static_cast<int>(w.ops.size()))
        end = std::max(end, Time(s.ops[*ctx.op].issue + *ctx.deadline));  // the deadline line stays on the chart
    return end > 0 ? end : Time(1);
}

}  // namespace

Time draw_heading(Chart& ch, const std::string& sub) {
    const Time width = ch.c.width() - 20;
    ch.c.fitted_text(10, 22, ch.ctx.title, 14, Anchor::start, "class=\"title\" font-weight=\"bold\"", width);
    if (sub.empty()) return 30;
    ch.c.fitted_text(10, 42, sub, 12, Anchor::start, "class=\"subtitle\" fill=\"#d00000\"", width);
    return 50;
}

// Ticks at {1, 2, 5} x 10^k, as many as fit without their labels touching.
void draw_time_axis(Chart& ch, const Time& y) {
    ch.c.line(ch.left, y, ch.right_edge(), y, "stroke=\"#000\"");
    const Time begin = ch.xs.window ? ch.xs.window->from : Time(0);
    // The first multiple of `step` in the window.
    const auto first_tick = [&](const Time& step) -> Time {
        const Time k = begin / step;
        const BigInt whole = numerator_ref(k) / denominator_ref(k);
        return Time(whole) * step < begin ? Time(BigInt(whole + 1)) * step : Time(whole) * step;
    };
    Time step = tick_step(ch.end - begin, 12);
    for (int max_ticks = 12; max_ticks > 1; --max_ticks) {
        step = tick_step(ch.end - begin, max_ticks);
        Time widest = 0;
        for (Time t = first_tick(step); t <= ch.end; t += step)
            widest = std::max(widest, text_width(human_string(t), 11));
        if (ch.xs.per_unit * step >= widest + 8) break;
    }
    for (Time t = first_tick(step); t <= ch.end; t += step) {
        ch.c.line(ch.xs.x(t), y, ch.xs.x(t), y + 5, "stroke=\"#000\"");
        ch.c.text(ch.xs.x(t), y + 17, human_string(t), 11, Anchor::middle, "class=\"tick\"");
    }
    ch.c.text(ch.left - 8, y + 4, ch.ctx.unit.empty() ? "t" : "t (" + ch.ctx.unit + ")", 11, Anchor::end,
              "class=\"axis-unit\" font-style=\"italic\"");
}

std::string svg_document(const Chart& ch, const Time& height, int fills) {
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(ch.c.width()) + "\" height=\"" +
           px(height) + "\" font-family=\"sans-serif\">\n";
    out +=
        "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" "
        "markerHeight=\"6\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\"/></marker>\n" +
        pattern_defs(fills) + "</defs>\n";
    out += "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n" + ch.c.str() + "</svg>\n";
    return out;
}

namespace {

// The names of one launch instant as label rows: all of them, or the first `keep` - 1 and
// "+N more" when there are more than `keep` (with `keep` 1: just how many).
std::vector<std::string> launch_rows(const Workload& w, const std::vector<int>& group, std::size_t keep) {
    std::vector<std::string> rows;
    for (int i : group) rows.push_back(w.ops[i].name);
    if (rows.size() > keep && keep == 1) return {std::to_string(rows.size()) + " launches"};
    if (rows.size() > keep) {
        const std::size_t more = rows.size() - (keep - 1);
        rows.resize(keep - 1);
        rows.push_back("+" + std::to_string(more) + " more");
    }
    return rows;
}

// Tries to put a launch group's labels from row `first` on, with the arrow from the axis down
// to them crossing no other label; true when placed.
bool place_launch(Chart& ch, const std::vector<std::string>& rows, const Time& x, const Time& axis_y, const Time& y,
                  std::size_t first) {
    const Time arrow_bottom = y + arrow_row * static_cast<long>(first) + 3;
    const TextBox arrow{x - 2, axis_y + 21, x + 2, arrow_bottom};
    if (!ch.c.space().free(arrow)) return false;
    for (std::size_t k = 0; k < rows.size(); ++k)
        if (!ch.c.space().free(
                text_box(x, y + arrow_row * static_cast<long>(first + k + 1), rows[k], 11, Anchor::middle)))
            return false;
    ch.c.space().take(arrow);
    for (std::size_t k = 0; k < rows.size(); ++k)
        ch.c.text(x, y + arrow_row * static_cast<long>(first + k + 1), rows[k], 11, Anchor::middle,
                  "class=\"launch\" fill=\"#222\"");
    return true;
}

// One arrow per launch instant (launches a few pixels apart count as one), pointing up at the
// axis, with the names launched then below it;
// a group whose labels would collide moves down, and past max_launch_rows keeps only its
// arrow (the names are in its tooltip).
void draw_launch_arrows(Chart& ch, const Time& axis_y, const Time& y) {
    std::vector<std::vector<int>> groups;
    for (int i : ch.s.launch_order)
        if (!ch.xs.shows(ch.s.ops[i].issue, ch.s.ops[i].issue)) continue;
        else if (groups.empty() || ch.xs.x(ch.s.ops[i].issue) - ch.xs.x(ch.s.ops[groups.back().front()].issue) >= 4)
            groups.push_back({i});  // launches closer than 4 px share one arrow and one list
        else groups.back().push_back(i);
    for (const auto& g : groups) {
        const Time issue = ch.s.ops[g.front()].issue, x = ch.xs.x(issue);
        std::string tooltip = "issued:";
        for (int i : g)
            tooltip += " " + ch.w.ops[i].name + " at " + human_string(ch.s.ops[i].issue) + ch.unit_suffix() + ";";
        tooltip.pop_back();
        // Every name if they fit in the rows, else fewer; the tooltip keeps them all.
        bool labelled = false;
        std::size_t first = 0;
        for (std::size_t keep : {g.size(), std::size_t{max_launch_rows}, std::size_t{3}, std::size_t{1}}) {
            const std::vector<std::string> rows = launch_rows(ch.w, g, keep);
            for (first = 0; !labelled && first + rows.size() <= max_launch_rows; ++first)
                labelled = place_launch(ch, rows, x, axis_y, y, first);
            if (labelled) {
                --first;
                break;
            }
        }
        const Time bottom = labelled ? Time(y + arrow_row * static_cast<long>(first) + 3) : Time(y + 3);
        ch.c.line(x, bottom, x, axis_y + 21,
                  "class=\"launch-arrow\" stroke=\"#333\" stroke-width=\"1.5\" marker-end=\"url(#arrow)\"", tooltip);
    }
}

// The operations a legend lists: those in view (issue to completion), at most
// max_legend_entries: the first in file order, and the marked one wherever it comes.
std::vector<std::size_t> legend_operations(const Chart& ch, std::size_t& in_view) {
    std::vector<std::size_t> shown;
    for (std::size_t i = 0; i < ch.w.ops.size(); ++i)
        if (ch.xs.shows(ch.s.ops[i].issue, ch.s.ops[i].finish)) shown.push_back(i);
    in_view = shown.size();
    if (shown.size() <= max_legend_entries) return shown;
    const auto marked =
        std::find_if(shown.begin(), shown.end(), [&](std::size_t i) { return ch.marked(static_cast<int>(i)); });
    if (marked != shown.end() && marked - shown.begin() >= static_cast<long>(max_legend_entries))
        std::swap(shown[max_legend_entries - 1], *marked);
    shown.resize(max_legend_entries);
    std::sort(shown.begin(), shown.end());
    return shown;
}

// One entry per operation listed, then how many in view are not.
Time draw_legend(Chart& ch, Time y) {
    std::size_t in_view = 0;
    std::vector<LegendEntry> entries;
    for (std::size_t i : legend_operations(ch, in_view)) {
        const Operation& o = ch.w.ops[i];
        entries.push_back({o.is_kernel() ? kernel_fill(ch.kernel_number[i]).fill() : "#d9d9d9",
                           o.is_kernel()
                               ? o.name + ": " + std::to_string(o.blocks) + " x " + std::to_string(o.threads) +
                                     " thr, " + time_with_unit(o.time.hi, ch.ctx.unit)
                               : o.name + ": copy " + time_with_unit(o.time.hi, ch.ctx.unit)});
    }
    y = draw_legend_entries(ch, entries, y);
    if (entries.size() < in_view)
        y = draw_note(ch, y,
                      std::to_string(in_view - entries.size()) + " more operations " +
                          (ch.xs.window ? "in view " : "") + "not listed (a legend lists at most " +
                          std::to_string(max_legend_entries) +
                          "): blocks, bands, copies and launches name theirs in their tooltips");
    return y;
}

}  // namespace
}  // namespace gantt

std::string xml_escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&apos;";
                break;
            default:
                out.push_back(c);
        }
    }
    return out;
}

std::string gantt_svg(const Workload& w, const Schedule& s, const ChartContext& ctx) {
    using namespace gantt;
    const Time end = ctx.window ? ctx.window->to : chart_end(w, s, ctx);
    Chart ch(w, s, ctx, end, ctx.window, title_column(sm_lane_titles(w)));
    int kernels = 0;
    for (const Operation& o : w.ops) ch.kernel_number.push_back(o.is_kernel() ? kernels++ : -1);
    Time y = draw_heading(ch, chart_subtitle(w, ctx));
    const Time marker_top = y;
    y = draw_marker_row(ch, y) + 6;
    y = draw_context_lane(ch, y);
    y = draw_sm_lanes(ch, y);
    y = draw_ce_lanes(ch, y);
    const Time axis_y = y;
    draw_deadline(ch, marker_top, axis_y);
    draw_time_axis(ch, axis_y);
    draw_launch_arrows(ch, axis_y, axis_y + 32);
    y = std::max(ch.c.bottom(), Time(axis_y + 32)) + 16;
    y = draw_legend(ch, y);
    if (ctx.window)
        y = draw_note(ch, y,
                      "shown: " + human_string(ctx.window->from) + " to " + human_string(ctx.window->to) +
                          ch.unit_suffix() + " of the schedule, which runs from 0 to " +
                          time_with_unit(chart_end(w, s, ctx), ctx.unit) +
                          " (--svg-window FROM:TO shows another window)");
    if (ch.bands)
        y = draw_note(ch, y,
                      std::string("each band: one kernel's blocks on one SM, from the first block's start to the "
                                  "last one's end") +
                          (w.sliced() ? ", in the pieces its context held the GPU" : "") +
                          " (block counts in the tooltips)");
    y = draw_band_rows_note(ch, y);
    return svg_document(ch, std::max(y, ch.c.bottom()) + 10, kernels);
}

}  // namespace gpuwcrt
