#include "report/contexts/context_lane.hpp"

#include <array>

#include "report/gantt_svg.hpp"

namespace gpuwcrt::gantt {
namespace {

constexpr int context_lane_height = 26;

// Light fills, so that the dark context names on them read; cycled past the fifth context.
const char* context_fill(int context) {
    static constexpr std::array<const char*, 5> fills{"#cfe3f7", "#f9dcc4", "#d4edc9", "#eadcf4", "#f7f0c0"};
    return fills[static_cast<std::size_t>(context) % fills.size()];
}

void draw_interval(Chart& ch, const ContextSlice& c, const Time& y, bool is_switch) {
    if (!ch.xs.shows_running(c.start, c.end)) return;
    const std::string& name = ch.w.contexts[c.context].name;
    const Time x0 = ch.xs.x(c.start), wd = std::max(Time(ch.xs.x(c.end) - x0), Time(1, 2));
    const std::string span = human_string(c.start) + " to " + human_string(c.end) + ch.unit_suffix();
    // An outline on a slice narrower than two pixels is all one would see of it: at hundreds of
    // slices the outlines alone would paint the lane black.
    const std::string outline = wd >= 2 ? " stroke-width=\"0.5\"" : " stroke-width=\"0\"";
    if (is_switch) {
        ch.c.rect(x0, y + 3, wd, context_lane_height - 6,
                  "class=\"context-switch\" fill=\"#9a9a9a\" stroke=\"#555\"" + outline,
                  "switch to context " + name + ": " + span);
        return;
    }
    ch.c.rect(x0, y + 3, wd, context_lane_height - 6,
              "class=\"context-slice\" data-context=\"" + xml_escape(name) + "\" fill=\"" + context_fill(c.context) +
                  "\" stroke=\"#222\"" + outline,
              "context " + name + " runs: " + span);
    const std::string label = shorten_to(name, 10, wd - 4);
    if (!label.empty())
        ch.c.label(x0 + wd / 2, y + context_lane_height / 2 + 4, label, 10, Anchor::middle,
                   "class=\"context-label\" fill=\"#222\"", TextBox{x0, y + 3, x0 + wd, y + context_lane_height - 3},
                   name);
}

}  // namespace

Time draw_context_lane(Chart& ch, Time y) {
    if (!ch.w.sliced()) return y;
    ch.c.rect(ch.left, y, plot_width, context_lane_height, "class=\"lane\" fill=\"#f4f4f4\" stroke=\"#999\"");
    lane_title(ch, y + context_lane_height / 2 + 5, {"GPU", 11, true}, "class=\"lane-title\"");
    for (const ContextSlice& c : ch.s.switches) draw_interval(ch, c, y, true);
    for (const ContextSlice& c : ch.s.slices) draw_interval(ch, c, y, false);
    return y + context_lane_height + lane_gap;
}

}  // namespace gpuwcrt::gantt
