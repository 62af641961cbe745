#include "app/chart_choice.hpp"

#include "app/cli_options.hpp"
#include "sim/simulate.hpp"
#include "sim/witness.hpp"

namespace gpuwcrt::app {

void add_svg_window_option(CLI::App* sub, std::optional<std::string>& text, bool charts_an_operation) {
    sub->add_option_function<std::string>(
        "--svg-window", [&text](const std::string& v) { text = v; },
        charts_an_operation
            ? "FROM:TO: the times the --svg chart shows (e.g. 120:180, in the workload's unit; default: the whole\n"
              "schedule, or over periodic streams the window around the charted operation's frame)"
            : "FROM:TO: the times the --svg chart shows (e.g. 120:180, in the workload's unit; default: the whole\n"
              "schedule)");
}

std::optional<TimeWindow> svg_window(const VerifyOptions& o) { return svg_window(o.svg_window, o.svg); }

std::optional<TimeWindow> svg_window(const std::optional<std::string>& window, const std::string& svg) {
    if (!window) return std::nullopt;
    const std::string& text = *window;
    if (svg.empty()) throw option_error("--svg-window", "needs --svg FILE: it chooses what the chart shows");
    const auto colon = text.find(':');
    if (colon == std::string::npos) throw option_error("--svg-window", "expected FROM:TO, got '" + text + "'");
    const std::string from = text.substr(0, colon), to = text.substr(colon + 1);
    std::optional<Time> t[2];
    const std::string* parts[2] = {&from, &to};
    for (int i = 0; i < 2; ++i) {
        if (!huge_exponent(*parts[i])) t[i] = parse_time(*parts[i]);
        if (!t[i] || *t[i] < 0)
            throw option_error("--svg-window", "'" + *parts[i] + "' is not a time >= 0 (in '" + text + "')");
    }
    if (*t[1] <= *t[0]) throw option_error("--svg-window", "FROM must be before TO, got '" + text + "'");
    return TimeWindow{*t[0], *t[1]};
}

std::vector<MarginRow> margin_rows(const Workload& w, const std::vector<WcrtAnswer>& answers) {
    std::vector<MarginRow> rows;
    for (const WcrtAnswer& a : answers) rows.push_back({a.op, w.ops[a.op].deadline, a.lower, a.upper, true});
    return rows;
}

std::vector<MarginRow> margin_rows(const std::vector<CertifyAnswer>& answers) {
    std::vector<MarginRow> rows;
    for (const CertifyAnswer& a : answers) {
        // A refutation's response is a replayed lower bound too.
        const std::optional<Time> lower = a.response && (!a.lower || *a.response > *a.lower) ? a.response : a.lower;
        rows.push_back({a.op, a.bound, lower, a.upper, true});
    }
    return rows;
}

std::optional<int> chart_operation(const std::vector<MarginRow>& rows, std::optional<int> given) {
    return given ? given : critical_operation(rows);
}

namespace {

void write_witness_chart(const VerifyOptions& o, const Workload& w, const WcrtAnswer& a,
                         const std::optional<Time>& bound) {
    const Schedule s = a.witness ? simulate(w, witness_scenario(w, *a.witness)) : simulate(w);
    ChartContext ctx = witness_chart(w, a.op, s.response(a.op));
    if (bound) ctx.deadline = bound;
    ctx.window = svg_window(o);
    write_gantt_svg(o.svg, w, s, ctx);
}

}  // namespace

void write_answer_chart(const VerifyOptions& o, const Workload& w, const WcrtAnswer& a) {
    write_witness_chart(o, w, a, std::nullopt);
}

void write_answer_chart(const VerifyOptions& o, const Workload& w, const CertifyAnswer& a) {
    if (!a.counterexample || !a.response) return write_witness_chart(o, w, a, a.bound);
    ChartContext ctx = counterexample_chart(w, a.op, *a.response, a.bound);
    ctx.window = svg_window(o);
    write_gantt_svg(o.svg, w, simulate(w, witness_scenario(w, *a.counterexample)), ctx);
}

}  // namespace gpuwcrt::app
