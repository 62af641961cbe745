#include "report/frames/frames_chart.hpp"

#include <algorithm>
#include <map>

#include "common/utf8.hpp"
#include "report/chart_style.hpp"
#include "report/contexts/context_lane.hpp"
#include "report/gantt_canvas.hpp"
#include "report/gantt_svg.hpp"

namespace gpuwcrt {
namespace {

using gantt::Chart;

// A stream lane holds its frames in rows of frame_row pixels; frames that overlap in time (a
// frame released while the previous one still runs) take the next row, up to max_frame_rows.
constexpr int frame_row = 20, bar_top = 4, bar_height = 12, max_frame_rows = 6, frame_font = 9;
// The SM lanes are the detail under the streams: at most this many rows of bands each.
constexpr int max_band_rows = 8;
// Stream lanes drawn at most: past that a chart is taller than a reader scrolls through.
constexpr std::size_t max_stream_lanes = 24;

struct FrameBar {
    int stream = 0;
    std::int64_t frame = 0;
    Time release, completion;
    std::vector<int> ops;                    // its operations in u.workload, in stream order
    std::vector<std::pair<Time, bool>> due;  // issue + deadline of each operation with one, and missed
};

// The earliest instant of the frame's release window that every issue instant chosen in it
// allows: an operation with `issue = [a, b]` issued at t was released in [t - b, t - a].
Time release_of(const FramesChart& f, const std::vector<int>& ops, const TimeRange& window) {
    Time release = window.lo;
    if (window.is_point()) return release;
    for (int i : ops) {
        const Operation& op = f.original.ops[f.u.origin[i].op];
        if (op.issue.kind != IssueSpec::Kind::at) continue;
        const bool chosen = i < static_cast<int>(f.issue_at.size()) && f.issue_at[i];
        const Time at = chosen ? *f.issue_at[i] : f.u.workload.ops[i].issue.at.lo;
        release = std::max(release, Time(at - op.issue.at.hi));
    }
    return release;
}

std::vector<FrameBar> frame_bars(const FramesChart& f) {
    const Workload& w = f.u.workload;
    std::map<std::pair<int, std::int64_t>, std::size_t> index;
    std::vector<FrameBar> bars;
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        const int stream = w.ops[i].stream;
        const auto [it, fresh] = index.try_emplace({stream, f.u.origin[i].frame}, bars.size());
        if (fresh) bars.push_back({stream, f.u.origin[i].frame, 0, f.s.ops[i].finish, {}, {}});
        FrameBar& b = bars[it->second];
        b.ops.push_back(static_cast<int>(i));
        b.completion = std::max(b.completion, f.s.ops[i].finish);
        if (const auto& d = w.ops[i].deadline) b.due.push_back({f.s.ops[i].issue + *d, f.s.response(i) > *d});
    }
    for (FrameBar& b : bars) b.release = release_of(f, b.ops, f.u.origin[b.ops.front()].release);
    return bars;
}

// When the last frame completes or the last deadline passes.
Time frames_last(const std::vector<FrameBar>& bars) {
    Time end = 0;
    for (const FrameBar& b : bars) {
        end = std::max(end, b.completion);
        for (const auto& d : b.due) end = std::max(end, d.first);
    }
    return end;
}

Time frames_end(const FramesChart& f, const std::vector<FrameBar>& bars, const ChartContext& ctx) {
    Time end = frames_last(bars);
    if (ctx.kind != ChartKind::schedule && ctx.op && ctx.deadline)
        end = std::max(end, Time(f.s.ops[*ctx.op].issue + *ctx.deadline));
    // A sixteenth more, for the label after the last frame.
    return end > 0 ? Time(end + end / 16) : Time(1);
}

// Around the singled-out operation's frame: from the release of the earliest frame still
// running when it was released (what delays it) to its completion or deadline, whichever is
// later, with a tenth of that span of room on each side; none when that is the whole chart.
std::optional<TimeWindow> focus_window(const FramesChart& f, const std::vector<FrameBar>& bars,
                                       const ChartContext& ctx) {
    if (ctx.kind == ChartKind::schedule || !ctx.op) return std::nullopt;
    const FrameBar* mine = nullptr;
    for (const FrameBar& b : bars)
        if (std::find(b.ops.begin(), b.ops.end(), *ctx.op) != b.ops.end()) mine = &b;
    if (!mine) return std::nullopt;
    Time from = mine->release, to = mine->completion;
    if (ctx.deadline) to = std::max(to, Time(f.s.ops[*ctx.op].issue + *ctx.deadline));
    for (const FrameBar& b : bars)
        if (b.release < mine->release && b.completion > mine->release) from = std::min(from, b.release);
    // Ends on multiples of a round step, so that the axis and the "shown" line read 120 to 180.
    const Time room = (to - from) / 10, step = tick_step(to - from + 2 * room, 20);
    const auto whole_steps = [&](const Time& t) -> BigInt {
        return numerator_ref(t / step) / denominator_ref(t / step);
    };
    from = std::max(Time(0), Time(Time(whole_steps(from - room)) * step));
    const BigInt up = whole_steps(to + room);
    to = Time(up) * step < to + room ? Time(BigInt(up + 1)) * step : Time(up) * step;
    if (from == 0 && to >= frames_end(f, bars, ctx)) return std::nullopt;
    return TimeWindow{from, to};
}

std::string span_text(const Chart& ch, const Time& from, const Time& to) {
    return human_string(from) + " to " + human_string(to) + ch.unit_suffix();
}

std::string period_title(const Stream& st) { return "T " + human_string(st.arrival.period); }

void lane_heading(Chart& ch, const Stream& st, const Time& y, int rows) {
    const Time height = rows * frame_row + 8;
    ch.c.rect(ch.left, y, gantt::plot_width, height, "class=\"lane\" fill=\"#f4f4f4\" stroke=\"#999\"", st.name);
    const std::string attrs = "class=\"stream\"";
    if (rows == 1 || st.arrival.kind == Arrival::Kind::none) {
        gantt::lane_title(ch, y + height / 2 + 4, {st.name, 10, true}, attrs);
        return;
    }
    gantt::lane_title(ch, y + height / 2 - 2, {st.name, 10, true}, attrs);
    gantt::lane_title(ch, y + height / 2 + 10, {period_title(st), 9, false}, "fill=\"#666\"");
}

// The streams that get a lane: all of them up to max_stream_lanes, else the charted
// operation's, then those that miss a deadline in view, then the first in file order.
std::vector<bool> streams_drawn(const Workload& w, const ChartContext& ctx, const std::vector<FrameBar>& bars,
                                const PixelScale& xs) {
    const std::size_t streams = w.streams.size();
    if (streams <= max_stream_lanes) return std::vector<bool>(streams, true);
    std::vector<bool> drawn(streams, false);
    std::size_t count = 0;
    const auto draw = [&](int stream) {
        if (count < max_stream_lanes && !drawn[stream]) drawn[stream] = ++count > 0;
    };
    if (ctx.kind != ChartKind::schedule && ctx.op) draw(w.ops[*ctx.op].stream);
    for (const FrameBar& b : bars)
        for (const auto& [due, missed] : b.due)
            if (missed && xs.shows(due, due)) draw(b.stream);
    for (std::size_t st = 0; st < streams; ++st) draw(static_cast<int>(st));
    return drawn;
}

// One frame: the frame's extent lightly, its operations where they run, its release tick and
// deadline ticks; the boxes it covers are taken so that no label lands on it.
void draw_frame(Chart& ch, const FrameBar& b, const Time& y0) {
    const Workload& w = ch.w;
    const KernelFill fill = kernel_fill(b.stream);
    const Time x0 = ch.xs.x(b.release), x1 = std::max(ch.xs.x(b.completion), Time(x0 + Time(1, 2)));
    if (ch.xs.shows_running(b.release, b.completion))  // a frame kept for its deadline alone draws no sliver
        ch.c.rect(x0, y0 + bar_top, x1 - x0, bar_height,
                  "class=\"frame\" fill=\"" + fill.light() + "\" stroke=\"" + fill.colour + "\"",
                  w.streams[b.stream].name + " frame " + std::to_string(b.frame) + ": released at " +
                      human_string(b.release) + ", complete at " + human_string(b.completion) + ch.unit_suffix() +
                      ", response " + human_string(b.completion - b.release));
    for (int i : b.ops) {
        const OpTiming& t = ch.s.ops[i];
        if (!ch.xs.shows_running(t.start, t.finish)) continue;
        const Time s0 = ch.xs.x(t.start), wd = std::max(Time(ch.xs.x(t.finish) - s0), Time(1, 2));
        const bool copy = !w.ops[i].is_kernel();
        const std::string stroke =
            ch.marked(i) ? "stroke=\"#d00000\" stroke-width=\"2\"" : "stroke=\"#222\" stroke-width=\"0.5\"";
        ch.c.rect(s0, y0 + bar_top + (copy ? 3 : 0), wd, bar_height - (copy ? 6 : 0),
                  std::string("class=\"") + (copy ? "frame-copy" : "frame-kernel") + "\" data-op=\"" +
                      xml_escape(w.ops[i].name) + "\" fill=\"" + fill.fill() + "\" " + stroke,
                  w.ops[i].name + ": issued at " + human_string(t.issue) + ", runs " +
                      span_text(ch, t.start, t.finish) + ", response " + human_string(ch.s.response(i)));
    }
    if (ch.xs.shows(b.release, b.release))  // not at the window's edge when released before it
        ch.c.line(x0, y0, x0, y0 + frame_row - 2, "class=\"release\" stroke=\"#000\" stroke-width=\"1.5\"",
                  w.streams[b.stream].name + " frame " + std::to_string(b.frame) + " released at " +
                      human_string(b.release) + ch.unit_suffix());
    ch.c.space().take({x0 - 1, y0, x1 + 1, y0 + frame_row});
    for (const auto& [due, missed] : b.due) {
        if (!ch.xs.shows(due, due)) continue;
        const Time x = ch.xs.x(due);
        ch.c.space().take({x - 1, y0, x + 1, y0 + frame_row});
        ch.c.line(x, y0, x, y0 + frame_row - 1,
                  missed ? "class=\"frame-deadline missed\" stroke=\"#d00000\" stroke-width=\"2\""
                         : "class=\"frame-deadline\" stroke=\"#d00000\" stroke-width=\"1\" stroke-dasharray=\"3 2\"",
                  std::string(missed ? "deadline MISSED at " : "deadline at ") + human_string(due) + ch.unit_suffix());
    }
}

// "#k R" after the frame (R its response, release to completion), or "#k", where free.
void label_frame(Chart& ch, const FrameBar& b, const Time& y0) {
    // Only after a bar drawn, and not at the window's right edge: the frame's tooltip says.
    if (!ch.xs.shows(b.completion, b.completion) || !ch.xs.shows_running(b.release, b.completion)) return;
    const Time x = ch.xs.x(b.completion) + 3, base = y0 + bar_top + bar_height - 2;
    const TextBox row{Time(ch.left), y0, Time(ch.right_edge()), y0 + frame_row};
    const std::string k = "#" + std::to_string(b.frame);
    const std::string attrs = "class=\"frame-label\" fill=\"#333\"";
    ch.c.label(x, base, k + " " + time_with_unit(b.completion - b.release, ""), frame_font, Anchor::start, attrs,
               row) ||
        ch.c.label(x, base, k, frame_font, Anchor::start, attrs, row);
}

Time draw_stream_lane(Chart& ch, std::vector<const FrameBar*> bars, int stream, Time y) {
    std::erase_if(bars, [&](const FrameBar* b) {
        Time last = b->completion;
        for (const auto& d : b->due) last = std::max(last, d.first);
        return !ch.xs.shows(b->release, last);
    });
    std::vector<std::pair<Time, Time>> spans;
    for (const FrameBar* b : bars) spans.push_back({ch.xs.x(b->release), ch.xs.x(b->completion)});
    std::vector<int> row = interval_rows(spans, Time(2));
    int rows = 1;
    for (int& r : row) rows = std::max(rows, (r = std::min(r, max_frame_rows - 1)) + 1);
    lane_heading(ch, ch.w.streams[stream], y, rows);
    for (std::size_t i = 0; i < bars.size(); ++i) draw_frame(ch, *bars[i], y + 4 + row[i] * frame_row);
    for (std::size_t i = 0; i < bars.size(); ++i) label_frame(ch, *bars[i], y + 4 + row[i] * frame_row);
    return y + rows * frame_row + 8 + gantt::lane_gap;
}

std::string arrival_text(const Stream& st, const std::string& unit) {
    const Arrival& a = st.arrival;
    std::string out;
    if (a.kind == Arrival::Kind::none) out = "once";
    if (a.kind == Arrival::Kind::periodic) out = "every " + time_with_unit(a.period, unit);
    if (a.kind == Arrival::Kind::sporadic) out = "at least " + time_with_unit(a.period, unit) + " apart";
    if (a.offset != 0) out += ", offset " + human_string(a.offset);
    if (a.jitter != 0) out += ", jitter " + human_string(a.jitter);
    return out;
}

// One entry per stream drawn (its colour, name, arrival and operations per frame), how many
// streams have no lane, then what the marks mean.
Time draw_stream_legend(Chart& ch, const Workload& original, const std::vector<bool>& drawn, Time y) {
    std::vector<gantt::LegendEntry> entries;
    for (std::size_t s = 0; s < original.streams.size(); ++s) {
        if (!drawn[s]) continue;
        const Stream& st = original.streams[s];
        const std::size_t ops = original.stream_ops(static_cast<int>(s)).size();
        entries.push_back({kernel_fill(static_cast<int>(s)).fill(), st.name + ": " + arrival_text(st, ch.ctx.unit) +
                                                                        ", " + std::to_string(ops) +
                                                                        (ops == 1 ? " op" : " ops")});
    }
    y = gantt::draw_legend_entries(ch, entries, y);
    if (entries.size() < original.streams.size())
        y = gantt::draw_note(ch, y,
                             std::to_string(original.streams.size() - entries.size()) + " of " +
                                 std::to_string(original.streams.size()) + " streams have no lane (at most " +
                                 std::to_string(max_stream_lanes) +
                                 ": the charted operation's, those missing a deadline, then in file order)");
    y = gantt::draw_note(
        ch, y,
        "a frame: from its release (black tick) to its last operation's completion, then #frame and its response;");
    return gantt::draw_note(ch, y,
                            "inside it each operation runs where it is solid; red ticks: deadlines, solid when missed");
}

std::string frames_subtitle(const FramesChart& f, const ChartContext& ctx) {
    if (ctx.kind == ChartKind::schedule || !ctx.op || !ctx.response) return "";
    const FrameOrigin& o = f.u.origin[*ctx.op];
    const std::string what = ctx.kind == ChartKind::witness ? "witness for " : "counterexample for ";
    std::string out = what + f.original.ops[o.op].name + " in frame " + std::to_string(o.frame) + " (" +
                      f.u.workload.ops[*ctx.op].name + "): response " + time_with_unit(*ctx.response, ctx.unit);
    if (ctx.kind == ChartKind::counterexample)
        return out + (ctx.deadline ? " > bound " + time_with_unit(*ctx.deadline, ctx.unit) : "");
    return out + (ctx.deadline ? ", deadline " + time_with_unit(*ctx.deadline, ctx.unit) : ", no deadline");
}

// The title column: as wide as the names of the streams drawn and of the SM lanes need.
int frames_title_column(const FramesChart& f, const std::vector<bool>& drawn) {
    std::vector<gantt::LaneTitle> titles = gantt::sm_lane_titles(f.u.workload);
    for (std::size_t s = 0; s < drawn.size(); ++s)
        if (drawn[s]) {
            titles.push_back({f.u.workload.streams[s].name, 10, true});
            titles.push_back({period_title(f.u.workload.streams[s]), 9, false});
        }
    return gantt::title_column(titles);
}

// The notes under the legend: the window shown, the SM lanes' bands or their absence.
Time draw_frames_notes(Chart& ch, const FramesChart& f, const std::vector<FrameBar>& bars,
                       const std::optional<TimeWindow>& window, Time y) {
    if (window)
        y = gantt::draw_note(
            ch, y,
            "shown: " + span_text(ch, window->from, window->to) + " of the frames, which run from 0 to " +
                time_with_unit(frames_last(bars), ch.ctx.unit) + " (--svg-window FROM:TO shows another window)");
    if (!f.blocks)
        y = gantt::draw_note(ch, y,
                             "no SM lanes: the frames have " + std::to_string(f.u.workload.total_blocks()) +
                                 " blocks, more than a chart draws");
    if (ch.bands)
        y = gantt::draw_note(
            ch, y, "SM lanes: one band per kernel and SM, from its first block's start to its last one's end");
    return gantt::draw_band_rows_note(ch, y);
}

}  // namespace

std::string frames_svg(const FramesChart& f, const ChartContext& ctx) {
    using namespace gantt;
    const std::vector<FrameBar> bars = frame_bars(f);
    const std::optional<TimeWindow> window = ctx.window ? ctx.window : focus_window(f, bars, ctx);
    const Time end = window ? window->to : frames_end(f, bars, ctx);
    const std::vector<bool> drawn = streams_drawn(f.u.workload, ctx, bars, window_scale(0, plot_width, end, window));
    Chart ch(f.u.workload, f.s, ctx, end, window, frames_title_column(f, drawn));
    ch.max_band_rows = max_band_rows;
    // Blocks take their stream's colour: the chart is read by stream.
    for (const Operation& o : f.u.workload.ops) ch.kernel_number.push_back(o.is_kernel() ? o.stream : -1);
    Time y = draw_heading(ch, frames_subtitle(f, ctx));
    const Time marker_top = y;
    y = draw_marker_row(ch, y) + 6;
    std::vector<std::vector<const FrameBar*>> by_stream(f.u.workload.streams.size());
    for (const FrameBar& b : bars) by_stream[b.stream].push_back(&b);
    for (std::size_t s = 0; s < by_stream.size(); ++s)
        if (drawn[s]) y = draw_stream_lane(ch, by_stream[s], static_cast<int>(s), y);
    y = draw_context_lane(ch, y + 6);  // which context holds the GPU, over the SMs
    if (f.blocks) y = draw_sm_lanes(ch, y);
    y = draw_ce_lanes(ch, y);
    const Time axis_y = y;
    draw_deadline(ch, marker_top, axis_y);
    draw_time_axis(ch, axis_y);
    y = draw_stream_legend(ch, f.original, drawn, std::max(ch.c.bottom(), Time(axis_y + 24)) + 16);
    y = draw_frames_notes(ch, f, bars, window, y);
    return svg_document(ch, std::max(y, ch.c.bottom()) + 10, static_cast<int>(f.u.workload.streams.size()));
}

}  // namespace gpuwcrt
