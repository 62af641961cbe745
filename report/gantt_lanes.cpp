// The lanes of the Gantt chart: SMs (blocks or bands), copy engines, and the marks of a
// witness or counterexample.
#include <algorithm>
#include <map>
#include <tuple>

#include "report/chart_style.hpp"
#include "report/gantt_canvas.hpp"
#include "report/gantt_svg.hpp"
#include "sim/contexts/block_pieces.hpp"

namespace gpuwcrt::gantt {
namespace {

constexpr int block_font_min = 7, block_font_max = 12, band_font = 9;

std::string block_name(const Workload& w, const BlockTiming& b) {
    return w.ops[b.kernel].name + ":" + std::to_string(b.index);
}

std::string span_text(const Chart& ch, const Time& from, const Time& to) {
    return human_string(from) + " to " + human_string(to) + ch.unit_suffix();
}

std::string stroke(const Chart& ch, int op, const char* normal) {
    return ch.marked(op) ? "stroke=\"#d00000\" stroke-width=\"2\"" : normal;
}

// `name` within `width`, or cut when what is left names no other operation (so "layer_1…" is
// no label when layer_10 exists: the tooltip tells); "" when not even that fits.
std::string telling_label(const Chart& ch, const std::string& name, int font, const Time& width) {
    const std::string label = shorten_to(name, font, width);
    if (label == name || label.empty()) return label;
    const std::string kept = label.substr(0, label.size() - std::string("\u2026").size());
    const auto from = std::lower_bound(ch.sorted_names.begin(), ch.sorted_names.end(), kept);
    const bool alone = from != ch.sorted_names.end() &&
                       (std::next(from) == ch.sorted_names.end() || !std::next(from)->starts_with(kept));
    return alone ? label : "";
}

// Blocks are drawn one by one when at least half of them are wide and tall enough for their
// label at the smallest font: otherwise the chart would be mostly unlabelled slivers.
bool draw_each_block(const Chart& ch) {
    const auto& blocks = ch.s.blocks;
    if (blocks.size() > 2000) return false;
    const Time per_thread(lane_height, ch.w.platform.threads_per_sm);
    std::size_t fit = 0;
    for (const BlockTiming& b : blocks) {
        if (!ch.xs.shows_running(b.start, b.end)) continue;  // not drawn; the window's blocks decide
        const Time wd = ch.xs.x(b.end) - ch.xs.x(b.start);
        const Time ht = per_thread * ch.w.ops[b.kernel].threads;
        fit += ht >= block_font_min + 3 && wd >= text_width(block_name(ch.w, b), block_font_min) + 2;
    }
    return 2 * fit >= blocks.size();
}

void lane_frame(Chart& ch, int sm, const Time& y, const Time& height) {
    ch.c.rect(ch.left, y, plot_width, height, "class=\"lane\" fill=\"#f4f4f4\" stroke=\"#999\"");
    lane_title(ch, y + height / 2 + 4, {"SM" + std::to_string(sm), 13, true}, "class=\"lane-title\"");
    lane_title(ch, y + height / 2 + 18, {sm_threads_title(ch.w), 9, false}, "fill=\"#666\"");
}

// SM lanes are as tall as the SM's thread capacity (the paper's y axis), or taller if the
// packing needed more room.
Time draw_block_lanes(Chart& ch, Time y) {
    const Workload& w = ch.w;
    const Schedule& s = ch.s;
    const std::vector<std::int64_t> offset = pack_block_offsets(w, s);
    std::vector<std::int64_t> lane_threads(w.platform.sms, w.platform.threads_per_sm);
    for (std::size_t i = 0; i < s.blocks.size(); ++i) {
        auto& top_of_lane = lane_threads[s.blocks[i].sm];
        top_of_lane = std::max(top_of_lane, offset[i] + w.ops[s.blocks[i].kernel].threads);
    }
    const Time per_thread(lane_height, w.platform.threads_per_sm);
    for (int sm = 0; sm < w.platform.sms; ++sm) {
        const Time bottom = y + per_thread * lane_threads[sm];
        lane_frame(ch, sm, y, bottom - y);
        for (std::size_t i = 0; i < s.blocks.size(); ++i) {
            const BlockTiming& b = s.blocks[i];
            if (b.sm != sm || !ch.xs.shows_running(b.start, b.end)) continue;
            const Operation& k = w.ops[b.kernel];
            // Thread 0 at the bottom of the lane, like the paper's y axis.
            const Time ht = per_thread * k.threads, yt = bottom - per_thread * (offset[i] + k.threads);
            // Under time slices a block runs in pieces, its context's slices (a piece each).
            for (const auto& [from, to] : block_pieces(w, s, b)) {
                if (!ch.xs.shows_running(from, to)) continue;
                const Time x0 = ch.xs.x(from), wd = ch.xs.x(to) - x0;
                const std::string label = block_name(w, b);
                const KernelFill f = kernel_fill(ch.kernel_number[b.kernel]);
                ch.c.rect(x0, yt, wd, ht,
                          "class=\"block\" data-block=\"" + xml_escape(label) + "\" fill=\"" + f.fill() + "\" " +
                              stroke(ch, b.kernel, "stroke=\"#222\" stroke-width=\"1\""),
                          label + " on SM" + std::to_string(sm) + ": " + span_text(ch, from, to));
                const Time font_size = std::clamp(Time(ht - 3), Time(block_font_min), Time(block_font_max));
                const int font = static_cast<int>(boost::multiprecision::numerator(font_size) /
                                                  boost::multiprecision::denominator(font_size));
                ch.c.label(x0 + wd / 2, yt + ht / 2 + Time(font * 35, 100), label, font, Anchor::middle,
                           "class=\"block-label\" fill=\"" + f.text_colour() + "\"", TextBox{x0, yt, x0 + wd, yt + ht});
            }
        }
        y = bottom + lane_gap;
    }
    return y;
}

struct Band {
    int kernel;
    Time start, end;
    std::int64_t blocks = 0;
};

std::vector<Band> bands_on(const Chart& ch, int sm) {
    std::map<int, Band> by_kernel;
    for (const BlockTiming& b : ch.s.blocks) {
        if (b.sm != sm) continue;
        auto [it, fresh] = by_kernel.try_emplace(b.kernel, Band{b.kernel, b.start, b.end, 0});
        it->second.start = std::min(it->second.start, b.start);
        it->second.end = std::max(it->second.end, b.end);
        ++it->second.blocks;
    }
    std::vector<Band> out;
    for (auto& [k, band] : by_kernel)
        if (ch.xs.shows_running(band.start, band.end)) out.push_back(band);
    std::stable_sort(out.begin(), out.end(), [](const Band& a, const Band& b) { return a.start < b.start; });
    return out;
}

// One band's rectangles: under time slices a preempted kernel ran in pieces, its context's
// slices within the band, each drawn as the block view draws a block's; the name goes in the
// widest piece.
void draw_band(Chart& ch, const Band& b, int sm, const Time& yt, const Time& ht) {
    const Operation& k = ch.w.ops[b.kernel];
    const KernelFill f = kernel_fill(ch.kernel_number[b.kernel]);
    // Pieces less than a pixel apart are one rectangle: at thousands of slices their outlines
    // alone would paint the band black.
    std::vector<std::pair<Time, Time>> drawn;  // times from, to
    for (const auto& [from, to] : block_pieces(ch.w, ch.s, BlockTiming{b.kernel, 0, sm, b.start, b.end})) {
        if (!ch.xs.shows_running(from, to)) continue;
        if (!drawn.empty() && ch.xs.x(from) - ch.xs.x(drawn.back().second) < 1) drawn.back().second = to;
        else drawn.emplace_back(from, to);
    }
    Time x0 = 0, wd = -1;  // the widest piece
    for (const auto& [from, to] : drawn) {
        const Time x = ch.xs.x(from), piece = std::max(Time(ch.xs.x(to) - x), Time(1, 2));
        ch.c.rect(x, yt, piece, ht,
                  "class=\"band\" data-kernel=\"" + xml_escape(k.name) + "\" data-blocks=\"" +
                      std::to_string(b.blocks) + "\" fill=\"" + f.fill() + "\" " +
                      stroke(ch, b.kernel, "stroke=\"#222\" stroke-width=\"0.5\""),
                  k.name + " on SM" + std::to_string(sm) + ": " + std::to_string(b.blocks) + " of " +
                      std::to_string(k.blocks) + " blocks, " + span_text(ch, from, to));
        if (piece > wd) std::tie(x0, wd) = std::pair<Time, Time>{x, piece};
    }
    if (wd < 0) return;
    const std::string label = telling_label(ch, k.name, band_font, wd - 4);
    const Time base = yt + ht / 2 + Time(band_font * 35, 100);
    const std::string attrs = "class=\"band-label\" fill=\"" + f.text_colour() + "\"";
    const TextBox inside{x0, yt, x0 + wd, yt + ht};
    // Centred, else at either end (clear of a deadline line that crosses the band).
    if (!label.empty())
        ch.c.label(x0 + wd / 2, base, label, band_font, Anchor::middle, attrs, inside, k.name) ||
            ch.c.label(x0 + 2, base, label, band_font, Anchor::start, attrs, inside, k.name) ||
            ch.c.label(x0 + wd - 2, base, label, band_font, Anchor::end, attrs, inside, k.name);
}

// One band per kernel per SM, stacked in rows so that bands of kernels running together on
// the SM do not hide each other.
Time draw_band_lanes(Chart& ch, Time y) {
    for (int sm = 0; sm < ch.w.platform.sms; ++sm) {
        const std::vector<Band> bands = bands_on(ch, sm);
        std::vector<std::pair<Time, Time>> spans;
        for (const Band& b : bands) spans.push_back({ch.xs.x(b.start), ch.xs.x(b.end)});
        std::vector<int> row = interval_rows(spans, Time(2));
        for (int& r : row) {
            ch.band_rows_cut = ch.band_rows_cut || r >= ch.max_band_rows;
            r = std::min(r, ch.max_band_rows - 1);
        }
        const int rows = row.empty() ? 1 : *std::max_element(row.begin(), row.end()) + 1;
        const Time height = std::max(rows * band_row + 8, band_lane_min);
        lane_frame(ch, sm, y, height);
        for (std::size_t i = 0; i < bands.size(); ++i)
            draw_band(ch, bands[i], sm, y + 4 + row[i] * band_row, Time(band_row - 3));
        y += height + lane_gap;
    }
    return y;
}

}  // namespace

Time draw_sm_lanes(Chart& ch, Time y) {
    ch.bands = !draw_each_block(ch);
    return ch.bands ? draw_band_lanes(ch, y) : draw_block_lanes(ch, y);
}

Time draw_ce_lanes(Chart& ch, Time y) {
    const Workload& w = ch.w;
    if (std::all_of(w.ops.begin(), w.ops.end(), [](const Operation& o) { return o.is_kernel(); })) return y;
    for (int e = 0; e < w.platform.copy_engines; ++e) {
        ch.c.rect(ch.left, y, plot_width, ce_height, "class=\"lane\" fill=\"#f4f4f4\" stroke=\"#999\"");
        lane_title(ch, y + ce_height / 2 + 5,
                   {w.platform.copy_engines == 1 ? "CE" : "CE" + std::to_string(e), 13, true}, "class=\"lane-title\"");
        for (std::size_t i = 0; i < w.ops.size(); ++i) {
            const OpTiming& t = ch.s.ops[i];
            if (w.ops[i].is_kernel() || t.engine != e || !ch.xs.shows_running(t.start, t.finish)) continue;
            const Time x0 = ch.xs.x(t.start), wd = std::max(Time(ch.xs.x(t.finish) - x0), Time(1, 2));
            ch.c.rect(x0, y + 3, wd, ce_height - 6,
                      "class=\"copy\" data-copy=\"" + xml_escape(w.ops[i].name) + "\" fill=\"#d9d9d9\" " +
                          stroke(ch, static_cast<int>(i), "stroke=\"#222\" stroke-width=\"1\""),
                      w.ops[i].name + ": " + span_text(ch, t.start, t.finish));
            const std::string label = telling_label(ch, w.ops[i].name, 10, wd - 4);
            if (!label.empty())
                ch.c.label(x0 + wd / 2, y + ce_height / 2 + 4, label, 10, Anchor::middle, "class=\"copy-label\"",
                           TextBox{x0, y + 3, x0 + wd, y + ce_height - 3}, w.ops[i].name);
        }
        y += ce_height + lane_gap;
    }
    return y;
}

Time draw_marker_row(Chart& ch, Time y) {
    if (!ch.marked(ch.ctx.op.value_or(-1))) return y;
    const int op = *ch.ctx.op;
    if (!ch.xs.shows(ch.s.ops[op].issue, ch.s.ops[op].finish)) return y;  // outside the window: the subtitle names it
    const Time x0 = ch.xs.x(ch.s.ops[op].issue), x1 = ch.xs.x(ch.s.ops[op].finish);
    const Time line_y = y + 20;
    const Time due = ch.s.ops[op].issue + ch.ctx.deadline.value_or(0);
    if (ch.ctx.deadline && ch.xs.shows(due, due)) {  // labels keep off the deadline line, wherever it runs
        const Time dx = ch.xs.x(due);
        ch.deadline_box = ch.c.space().take({dx - 1, y, dx + 1, Time(1'000'000'000)});
    }
    ch.c.line(x0, line_y, x1, line_y, "class=\"bracket\" stroke=\"#d00000\" stroke-width=\"2\"",
              ch.w.ops[op].name + ": issued at " + human_string(ch.s.ops[op].issue) + ", complete at " +
                  human_string(ch.s.ops[op].finish) + ch.unit_suffix());
    for (const Time& x : {x0, x1}) ch.c.line(x, line_y - 5, x, line_y + 8, "stroke=\"#d00000\" stroke-width=\"2\"");
    ch.c.space().take({x0 - 2, line_y - 5, x1 + 2, line_y + 8});
    const std::string text = ch.w.ops[op].name + ": " + time_with_unit(*ch.ctx.response, ch.ctx.unit);
    const TextBox row{0, y, Time(ch.c.width()), y + 34};
    const std::string attrs = "class=\"marker-label\" fill=\"#d00000\"";
    ch.c.label((x0 + x1) / 2, line_y - 9, text, 11, Anchor::middle, attrs, row) ||
        ch.c.label(x1 + 6, line_y + 4, text, 11, Anchor::start, attrs, row) ||
        ch.c.label(x0 - 6, line_y + 4, text, 11, Anchor::end, attrs, row);
    return y + 34;
}

void draw_deadline(Chart& ch, const Time& top, const Time& bottom) {
    if (!ch.marked(ch.ctx.op.value_or(-1)) || !ch.ctx.deadline) return;
    const int op = *ch.ctx.op;
    const Time due = ch.s.ops[op].issue + *ch.ctx.deadline;
    if (!ch.xs.shows(due, due)) return;  // outside the window: no line at its edge
    const Time x = ch.xs.x(due);
    const std::string what = ch.ctx.kind == ChartKind::counterexample ? "bound " : "deadline ";
    if (ch.deadline_box) ch.c.space().retake(*ch.deadline_box, {x - 1, top, x + 1, bottom});
    ch.c.line(x, top, x, bottom, "class=\"deadline\" stroke=\"#d00000\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"",
              what + time_with_unit(*ch.ctx.deadline, ch.ctx.unit) + " after the issue of " + ch.w.ops[op].name);
    const std::string text = what + time_with_unit(*ch.ctx.deadline, ch.ctx.unit);
    const TextBox row{0, top, Time(ch.c.width()), top + 34};
    const std::string attrs = "class=\"deadline-label\" fill=\"#d00000\"";
    ch.c.label(x + 4, top + 12, text, 10, Anchor::start, attrs, row) ||
        ch.c.label(x - 4, top + 12, text, 10, Anchor::end, attrs, row);
}

}  // namespace gpuwcrt::gantt
