#pragma once
// What a chart shows besides the schedule: its heading, the time unit on its axis and, for a
// witness or counterexample, the operation it is about with its response and deadline/bound.
#include <optional>
#include <string>

#include "model/workload.hpp"

namespace gpuwcrt {

enum class ChartKind {
    schedule,       // simulate: one scenario, nothing singled out
    witness,        // wcrt: a scenario in which `op` responds in `response`
    counterexample  // certify: a scenario in which `op` responds in `response` > `deadline` (the bound)
};

// The times a chart draws, from < to; what lies outside is left out (cut at the edges).
struct TimeWindow {
    Time from, to;
};

struct ChartContext {
    ChartKind kind = ChartKind::schedule;
    std::string title;             // heading
    std::string unit;              // "ms", … for the axis and the times in text; "" when unitless
    std::optional<int> op;         // the operation singled out (witness, counterexample)
    std::optional<Time> response;  // its response in the charted scenario
    std::optional<Time> deadline;  // witness: its deadline if any; counterexample: the bound refuted
    // The window drawn; none: the whole schedule, or, over frames with an operation singled
    // out, the window around its frame (frames_svg).
    std::optional<TimeWindow> window = {};
};

// The workload's `title`, else its file name without the directories, else "schedule".
std::string chart_title(const Workload& w);

ChartContext schedule_chart(const Workload& w);
ChartContext witness_chart(const Workload& w, int op, const Time& response);
ChartContext counterexample_chart(const Workload& w, int op, const Time& response, const Time& bound);

// "witness for t4: response 11/2 ms, deadline 5 ms", "counterexample for t4: response 6 ms >
// bound 5 ms"; "" for a plain schedule.
std::string chart_subtitle(const Workload& w, const ChartContext& ctx);

// "5.5 ms", or "5.5" without a unit; a time that is no short decimal "≈8.042059 ms" (exact
// with --exact).
std::string time_with_unit(const Time& t, const std::string& unit);

}  // namespace gpuwcrt
