// What surrounds the plot of a Gantt chart: the column of lane titles on its left, the legend
// and the notes under it.
#include <algorithm>

#include "report/gantt_canvas.hpp"

namespace gpuwcrt::gantt {

Time lane_title_width(const LaneTitle& t) {
    const Time w = text_width(t.text, t.font);
    return t.bold ? Time(w * 11 / 10) : w;
}

int title_column(const std::vector<LaneTitle>& titles) {
    Time widest = 0;
    for (const LaneTitle& t : titles) widest = std::min(std::max(widest, lane_title_width(t)), Time(max_title_width));
    const Time left = widest + 18;
    const BigInt whole = numerator_ref(left) / denominator_ref(left);
    return std::max(min_left, static_cast<int>(whole) + 1);
}

std::vector<LaneTitle> sm_lane_titles(const Workload& w) {
    std::vector<LaneTitle> titles{{sm_threads_title(w), 9, false}};
    for (int sm = 0; sm < w.platform.sms; ++sm) titles.push_back({"SM" + std::to_string(sm), 13, true});
    for (int e = 0; e < w.platform.copy_engines; ++e) titles.push_back({"CE" + std::to_string(e), 13, true});
    return titles;
}

std::string sm_threads_title(const Workload& w) { return std::to_string(w.platform.threads_per_sm) + " thr"; }

void lane_title(Chart& ch, const Time& y, const LaneTitle& t, const std::string& attrs) {
    // Measured as drawn: bold glyphs count a tenth wider, so the room shrinks by as much.
    const Time room = t.bold ? Time(title_room(ch.left) * 10 / 11) : title_room(ch.left);
    ch.c.fitted_text(8, y, t.text, t.font, Anchor::start, attrs + (t.bold ? " font-weight=\"bold\"" : ""), room, true);
}

Time draw_legend_entries(Chart& ch, const std::vector<LegendEntry>& entries, Time y) {
    if (entries.empty()) return y;
    // Columns as wide as the widest entry (a 12 px swatch, 4 px, the text, 14 px apart), at
    // least two when there are more than four entries: a longer text is cut, whole in its tooltip.
    const Time widest_allowed = entries.size() > 4 ? Time(plot_width / 2) : Time(plot_width);
    Time column = 0;
    for (const LegendEntry& e : entries) column = std::max(column, Time(text_width(e.text, 10) + 30));
    column = std::min(column, widest_allowed);
    const BigInt fit = numerator_ref(Time(plot_width) / column) / denominator_ref(Time(plot_width) / column);
    const std::size_t columns = std::max<std::size_t>(1, static_cast<std::size_t>(fit));
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const Time x = ch.left + column * static_cast<long>(i % columns);
        const Time baseline = y + 18 * static_cast<long>(i / columns);
        ch.c.rect(x, baseline - 10, 12, 12, "fill=\"" + entries[i].fill + "\" stroke=\"#222\"");
        ch.c.fitted_text(x + 16, baseline, entries[i].text, 10, Anchor::start, "class=\"legend\"", column - 30);
    }
    return y + 18 * static_cast<long>((entries.size() - 1) / columns) + 14;
}

Time draw_note(Chart& ch, const Time& y, const std::string& text) {
    ch.c.fitted_text(ch.left, y + 6, text, 10, Anchor::start, "class=\"legend-note\" fill=\"#555\"",
                     Time(ch.c.width() - ch.left - 10));
    return y + 16;
}

Time draw_band_rows_note(Chart& ch, const Time& y) {
    if (!ch.band_rows_cut) return y;
    return draw_note(ch, y,
                     "SM lanes: at most " + std::to_string(ch.max_band_rows) +
                         " rows of bands each; bands that would need more share the last row (see their tooltips)");
}

}  // namespace gpuwcrt::gantt
