#include "report/chart_context.hpp"

#include "report/time_notation.hpp"

namespace gpuwcrt {

std::string chart_title(const Workload& w) {
    if (!w.title.empty()) return w.title;
    const auto slash = w.source.find_last_of('/');
    const std::string base = slash == std::string::npos ? w.source : w.source.substr(slash + 1);
    return base.empty() ? "schedule" : base;
}

ChartContext schedule_chart(const Workload& w) {
    return {ChartKind::schedule, chart_title(w), w.time_unit, {}, {}, {}};
}

ChartContext witness_chart(const Workload& w, int op, const Time& response) {
    return {ChartKind::witness, chart_title(w), w.time_unit, op, response, w.ops.at(op).deadline};
}

ChartContext counterexample_chart(const Workload& w, int op, const Time& response, const Time& bound) {
    return {ChartKind::counterexample, chart_title(w), w.time_unit, op, response, bound};
}

std::string time_with_unit(const Time& t, const std::string& unit) {
    // A chart is read, not signed: a long fraction (241261777/30000000) becomes its nearest
    // decimal, marked as such; the tooltips keep the exact values.
    const TimeText text = time_text(t, Rounding::nearest);
    const std::string value = text.rounded ? "≈" + text.text : exact_times() ? human_string(t) : text.text;
    return unit.empty() ? value : value + " " + unit;
}

std::string chart_subtitle(const Workload& w, const ChartContext& ctx) {
    if (ctx.kind == ChartKind::schedule || !ctx.op || !ctx.response) return "";
    const std::string name = w.ops.at(*ctx.op).name;
    const std::string response = "response " + time_with_unit(*ctx.response, ctx.unit);
    if (ctx.kind == ChartKind::counterexample)
        return "counterexample for " + name + ": " + response +
               (ctx.deadline ? " > bound " + time_with_unit(*ctx.deadline, ctx.unit) : "");
    return "witness for " + name + ": " + response +
           (ctx.deadline ? ", deadline " + time_with_unit(*ctx.deadline, ctx.unit) : ", no deadline");
}

}  // namespace gpuwcrt
