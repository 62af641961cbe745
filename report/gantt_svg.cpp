#include "report/gantt_svg.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include "report/gantt_layout.hpp"

namespace gpuwcrt {
namespace {

// Layout constants, in pixels.
constexpr int left = 70, plot_width = 900, right = 30, top = 40;
constexpr int lane_height = 160;  // one SM's full thread capacity
constexpr int lane_gap = 12, ce_height = 28;
constexpr int arrow_row = 15, char_width = 7;

// Dark enough for white labels.
const char* const palette[] = {"#4e79a7", "#e8762b", "#59a14f", "#e15759", "#499894",
                               "#b6992d", "#b07aa1", "#d37295", "#9c755f", "#79706e"};

std::string colour_of(const Workload& w, int op) {
    int n = 0;  // kernels are coloured in file order
    for (int i = 0; i < op; ++i) n += w.ops[i].is_kernel();
    return palette[n % std::size(palette)];
}

struct Canvas {
    std::ostringstream body;
    void rect(const Time& x, const Time& y, const Time& wd, const Time& ht, const std::string& attrs) {
        body << "<rect x=\"" << px(x) << "\" y=\"" << px(y) << "\" width=\"" << px(wd) << "\" height=\"" << px(ht)
             << "\" " << attrs << "/>\n";
    }
    void text(const Time& x, const Time& y, const std::string& s, const std::string& attrs) {
        body << "<text x=\"" << px(x) << "\" y=\"" << px(y) << "\" " << attrs << ">" << xml_escape(s) << "</text>\n";
    }
    void line(const Time& x1, const Time& y1, const Time& x2, const Time& y2, const std::string& attrs) {
        body << "<line x1=\"" << px(x1) << "\" y1=\"" << px(y1) << "\" x2=\"" << px(x2) << "\" y2=\"" << px(y2) << "\" "
             << attrs << "/>\n";
    }
};

Time chart_end(const Schedule& s) {
    Time end = 0;
    for (const OpTiming& o : s.ops) end = std::max({end, o.finish, o.issue});
    return end > 0 ? end : Time(1);
}

// SM lanes are as tall as the SM's thread capacity (the paper's y axis), or taller if the
// packing needed more room; returns the y below the last lane.
Time draw_sm_lanes(Canvas& c, const Workload& w, const Schedule& s, const PixelScale& xs) {
    const std::vector<std::int64_t> offset = pack_block_offsets(w, s);
    std::vector<std::int64_t> lane_threads(w.platform.sms, w.platform.threads_per_sm);
    for (std::size_t i = 0; i < s.blocks.size(); ++i) {
        auto& top_of_lane = lane_threads[s.blocks[i].sm];
        top_of_lane = std::max(top_of_lane, offset[i] + w.ops[s.blocks[i].kernel].threads);
    }
    const Time per_thread(lane_height, w.platform.threads_per_sm);
    Time y = top;
    for (int sm = 0; sm < w.platform.sms; ++sm) {
        const Time height = per_thread * lane_threads[sm];
        const Time bottom = y + height;
        c.rect(left, y, plot_width, height, "fill=\"#f4f4f4\" stroke=\"#999\"");
        c.text(10, y + height / 2 + 4, "SM" + std::to_string(sm), "font-size=\"13\" font-weight=\"bold\"");
        c.text(10, y + height / 2 + 18, std::to_string(w.platform.threads_per_sm) + " thr",
               "font-size=\"9\" fill=\"#666\"");
        for (std::size_t i = 0; i < s.blocks.size(); ++i) {
            const BlockTiming& b = s.blocks[i];
            if (b.sm != sm) continue;
            const Operation& k = w.ops[b.kernel];
            // Thread 0 at the bottom of the lane, like the paper's y axis.
            const Time ht = per_thread * k.threads, yt = bottom - per_thread * (offset[i] + k.threads);
            const Time x0 = xs.x(b.start), wd = xs.x(b.end) - x0;
            const std::string label = k.name + ":" + std::to_string(b.index);
            c.rect(x0, yt, wd, ht,
                   "class=\"block\" data-block=\"" + xml_escape(label) + "\" fill=\"" + colour_of(w, b.kernel) +
                       "\" stroke=\"#222\" stroke-width=\"1\"");
            const Time font = std::clamp(Time(ht - 3), Time(6), Time(12));
            c.text(x0 + wd / 2, yt + ht / 2 + font * 35 / 100, label,
                   "class=\"block-label\" font-size=\"" + px(font) + "\" text-anchor=\"middle\" fill=\"#fff\"");
        }
        y = bottom + lane_gap;
    }
    return y;
}

Time draw_ce_lanes(Canvas& c, const Workload& w, const Schedule& s, const PixelScale& xs, Time y) {
    bool any_copy = std::any_of(w.ops.begin(), w.ops.end(), [](const Operation& o) { return !o.is_kernel(); });
    if (!any_copy) return y;
    for (int e = 0; e < w.platform.copy_engines; ++e) {
        c.rect(left, y, plot_width, ce_height, "fill=\"#f4f4f4\" stroke=\"#999\"");
        c.text(10, y + ce_height / 2 + 5, w.platform.copy_engines == 1 ? "CE" : "CE" + std::to_string(e),
               "font-size=\"13\" font-weight=\"bold\"");
        for (std::size_t i = 0; i < w.ops.size(); ++i) {
            if (w.ops[i].is_kernel() || s.ops[i].engine != e) continue;
            const Time x0 = xs.x(s.ops[i].start), wd = xs.x(s.ops[i].finish) - x0;
            c.rect(x0, y + 3, wd, ce_height - 6,
                   "class=\"copy\" data-copy=\"" + xml_escape(w.ops[i].name) +
                       "\" fill=\"#d9d9d9\" stroke=\"#222\" stroke-width=\"1\"");
            c.text(x0 + wd / 2, y + ce_height / 2 + 4, w.ops[i].name,
                   "class=\"copy-label\" font-size=\"10\" text-anchor=\"middle\"");
        }
        y += ce_height + lane_gap;
    }
    return y;
}

void draw_time_axis(Canvas& c, const PixelScale& xs, const Time& end, const Time& y) {
    c.line(left, y, left + plot_width, y, "stroke=\"#000\"");
    const Time step = tick_step(end, 12);
    for (Time t = 0; t <= end; t += step) {
        c.line(xs.x(t), y, xs.x(t), y + 5, "stroke=\"#000\"");
        c.text(xs.x(t), y + 17, human_string(t), "class=\"tick\" font-size=\"11\" text-anchor=\"middle\"");
    }
    c.text(left + plot_width + 5, y + 4, "t", "font-size=\"11\" font-style=\"italic\"");
}

// One arrow per launch instant, pointing up at the axis (ending under the tick labels), with the names launched then
// listed below it in launch order; a group whose labels would collide with an earlier one moves down.
Time draw_launch_arrows(Canvas& c, const Workload& w, const Schedule& s, const PixelScale& xs, const Time& axis_y,
                        const Time& y) {
    std::vector<std::vector<int>> groups;
    for (int i : s.launch_order)
        if (groups.empty() || s.ops[groups.back().front()].issue != s.ops[i].issue) groups.push_back({i});
        else groups.back().push_back(i);
    std::vector<Time> row_end;  // right end of the last label in each row
    std::size_t rows_used = 0;
    for (const auto& g : groups) {
        const Time x = xs.x(s.ops[g.front()].issue);
        std::size_t longest = 0;
        for (int i : g) longest = std::max(longest, w.ops[i].name.size());
        const Time half = Time(static_cast<long>(longest) * char_width + 6, 2);
        std::size_t first = 0;
        auto free_from = [&](std::size_t r) {
            for (std::size_t k = r; k < r + g.size() && k < row_end.size(); ++k)
                if (row_end[k] > x - half) return false;
            return true;
        };
        while (!free_from(first)) ++first;
        if (row_end.size() < first + g.size()) row_end.resize(first + g.size(), Time(-1000));
        for (std::size_t k = 0; k < g.size(); ++k) {
            const int i = g[k];
            row_end[first + k] = x + half;
            const std::string colour = w.ops[i].is_kernel() ? colour_of(w, i) : "#777";
            c.text(x, y + arrow_row * static_cast<long>(first + k + 1), w.ops[i].name,
                   "class=\"launch\" font-size=\"11\" text-anchor=\"middle\" fill=\"" + colour + "\"");
        }
        c.line(x, y + arrow_row * static_cast<long>(first) + 3, x, axis_y + 21,
               "stroke=\"#333\" stroke-width=\"1.5\" marker-end=\"url(#arrow)\"");
        rows_used = std::max(rows_used, row_end.size());
    }
    return y + arrow_row * (static_cast<long>(rows_used) + 1);
}

Time draw_legend(Canvas& c, const Workload& w, Time y) {
    Time x = left;
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        const Operation& o = w.ops[i];
        std::string text = o.is_kernel() ? o.name + ": " + std::to_string(o.blocks) + " x " +
                                               std::to_string(o.threads) + " thr, " + human_string(o.time.hi)
                                         : o.name + ": copy " + human_string(o.time.hi);
        const Time width = Time(static_cast<long>(text.size()) * 6 + 30);
        if (x + width > left + plot_width) {
            x = left;
            y += 18;
        }
        c.rect(x, y - 10, 12, 12,
               "fill=\"" + (o.is_kernel() ? colour_of(w, static_cast<int>(i)) : std::string("#d9d9d9")) +
                   "\" stroke=\"#222\"");
        c.text(x + 16, y, text, "font-size=\"10\"");
        x += width;
    }
    return y + 14;
}

}  // namespace

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

std::string gantt_svg(const Workload& w, const Schedule& s) {
    const Time end = chart_end(s);
    const PixelScale xs{Time(left), Time(plot_width) / end};
    Canvas c;
    c.text(left, 22, w.source.empty() ? "schedule" : w.source, "font-size=\"14\" font-weight=\"bold\"");
    Time y = draw_sm_lanes(c, w, s, xs);
    y = draw_ce_lanes(c, w, s, xs, y);
    const Time axis_y = y;
    draw_time_axis(c, xs, end, axis_y);
    y = draw_launch_arrows(c, w, s, xs, axis_y, axis_y + 32);
    y = draw_legend(c, w, y + 10);
    std::ostringstream out;
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << left + plot_width + right << "\" height=\""
        << px(y + 10) << "\" font-family=\"sans-serif\">\n"
        << "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" "
           "markerHeight=\"6\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\"/></marker></defs>\n"
        << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n"
        << c.body.str() << "</svg>\n";
    return out.str();
}

}  // namespace gpuwcrt
