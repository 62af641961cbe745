#include "app/frames/all_time_command.hpp"

#include <iostream>

#include "app/assumptions/answer_assumptions.hpp"
#include "app/chart_choice.hpp"
#include "app/cli_options.hpp"
#include "app/exit_codes.hpp"
#include "app/frames/frames_outputs.hpp"
#include "app/phase_progress.hpp"
#include "model/time_unit.hpp"
#include "report/context/output_context.hpp"
#include "report/csv/csv_rows.hpp"
#include "report/provenance.hpp"
#include "report/text_table.hpp"
#include "solver/frames/all_time.hpp"

namespace gpuwcrt::app {
namespace {

// certify's verdict from the all-time bounds: certified when every frame's bound is within,
// refuted when a replayed frame exceeds it.
Verdict verdict_of(const WcrtAnswer& a, const Time& bound) {
    if (a.upper && *a.upper <= bound) return Verdict::certified;
    if (a.lower && *a.lower > bound) return Verdict::refuted;
    return Verdict::unknown;
}

std::string status_text(const WcrtAnswer& a) {
    return a.status == WcrtStatus::exact ? "exact" : "unknown (" + a.unknown_reason + ")";
}

std::string by_text(const WcrtAnswer& a) {
    std::string by = a.lower_by == Provenance::none ? "-" : provenance_text(a.lower_by);
    if (a.upper_by != Provenance::none) by += " / " + provenance_text(a.upper_by);
    return by;
}

Json row_json(const AllTimeRequest& r, const Workload& w, const AllTimeResult& res, int op) {
    const WcrtAnswer& a = res.answers[op];
    Json j = {{"name", w.ops[op].name},  // as in the one-frame outputs; CSV calls it "operation"
              {"kind", w.ops[op].is_kernel() ? "kernel" : "copy"},
              {"stream", w.streams[w.ops[op].stream].name},
              {"wcrt", time_or_null(a.lower)},
              {"upper_bound", time_or_null(a.upper)},
              {"status", to_string(a.status)},
              {"lower_bound", time_or_null(a.lower)},  // = wcrt, named as in the one-frame outputs
              {"frame", res.frame[op] ? Json(*res.frame[op]) : Json(nullptr)},
              {"unknown_reason", a.unknown_reason.empty() ? Json(nullptr) : Json(a.unknown_reason)},
              {"lower_by", provenance_json(a.lower_by)},
              {"upper_by", provenance_json(a.upper_by)},
              {"deadline", time_or_null(w.ops[op].deadline)}};
    const std::optional<bool> met = deadline_met(w.ops[op].deadline, a.lower, a.upper);
    j["deadline_met"] = met ? Json(*met) : Json(nullptr);
    if (const auto b = r.bounds.find(op); b != r.bounds.end()) {
        j["bound"] = exact_string(b->second);
        j["verdict"] = to_string(verdict_of(a, b->second));
    }
    return j;
}

std::string closure_text(const AllTimeResult& res) {
    if (res.overload) return "no bound: " + res.overload->reason;
    std::vector<std::string> parts;
    if (res.steady_over != 0)
        parts.push_back("the bounds of each " +
                        (res.steady_over == 1 ? "hyperperiod" : std::to_string(res.steady_over) + " hyperperiods") +
                        " of " + human_string(res.hyperperiod * res.steady_over) +
                        " settle with the previous one's carry-over");
    if (res.closed_after != 0)
        parts.push_back("the GPU is proven idle at the end of " + std::to_string(res.closed_after) +
                        (res.closed_after == 1 ? " hyperperiod" : " hyperperiods") + " of " +
                        human_string(res.hyperperiod) + ", so every later frame repeats one of these");
    if (res.explored_window != 0)
        parts.push_back("every state of the frames was explored, in a window of " +
                        std::to_string(res.explored_window) + " hyperperiods of " + human_string(res.hyperperiod) +
                        " moved on one hyperperiod at a time, until none was new (" +
                        std::to_string(res.explored_states) + " states): the worst response of every frame");
    if (res.busy_window)
        parts.push_back("every busy period of the GPU is proven to end within " + human_string(*res.busy_window) +
                        ", and the frames one can hold are bounded wherever they are released");
    if (parts.empty()) {
        std::string why = "no all-time bound";
        if (!res.steady_why.empty()) why += ": no steady state (" + res.steady_why + ")";
        if (!res.explore_why.empty()) why += "; no exploration of the frames (" + res.explore_why + ")";
        if (!res.busy_why.empty())
            why += (res.steady_why.empty() ? ": " : "; ") + std::string("no busy window (") + res.busy_why + ")";
        return why;
    }
    std::string text;
    for (const std::string& p : parts) text += (text.empty() ? "" : "; ") + p;
    return text + " (docs/all-time.md)";
}

// The kinds of repeating streams, for the table's title.
std::string arrivals_text(const Workload& w) {
    bool sporadic = false;
    for (const Stream& s : w.streams) sporadic = sporadic || s.arrival.kind == Arrival::Kind::sporadic;
    return sporadic ? "periodic and sporadic streams (hyperperiod of the periods and least inter-arrival times "
                    : "periodic streams (hyperperiod ";
}

// The all-time analysis ranges over every SM placement, whatever --policy says.
std::vector<Assumption> all_time_assumptions(const VerifyOptions& o, const Workload& w) {
    VerifyOptions any = o;
    any.policy = "any";
    return answer_assumptions(w, any, {});
}

void print_table(const AllTimeRequest& r, const Workload& w, const AllTimeResult& res) {
    const bool certify = !r.bounds.empty();
    // certify's verdict says what status would: a second column would only disagree in words.
    std::vector<std::string> header{"operation", "wcrt", "upper bound", "frame"};
    if (!certify) header.push_back("status");
    if (certify) header.insert(header.begin() + 1, {"bound", "verdict"});
    header.push_back("by");
    TextTable t(header);
    for (const int op : r.ops) {
        const WcrtAnswer& a = res.answers[op];
        const std::string frame = res.frame[op] ? std::to_string(*res.frame[op]) : "-";
        std::vector<TableCell> row{w.ops[op].name, TableCell::lower(a.lower), TableCell::upper(a.upper), frame};
        if (!certify) row.push_back(status_text(a));
        if (certify) {
            const Time& b = r.bounds.at(op);
            row.insert(row.begin() + 1, {b, to_string(verdict_of(a, b))});
        }
        row.push_back(by_text(a));
        t.add(row);
    }
    std::cout << "all time, every frame of every operation; " << arrivals_text(w) << human_string(res.hyperperiod)
              << ")\n";
    if (const auto unit = time_unit_name(w.time_unit)) std::cout << "times in " << *unit << '\n';
    t.print(std::cout);
    std::cout << "wcrt: the worst replayed response of any frame (frame: which); upper bound: proven for every frame\n"
              << closure_text(res) << '\n'
              << "lower bounds: " << res.simulations << " simulated scenarios\n";
    print_assumptions(std::cout, all_time_assumptions(r.options, w));
}

int exit_code(const AllTimeRequest& r, const AllTimeResult& res) {
    int code = exit_ok;
    for (const int op : r.ops) {
        const WcrtAnswer& a = res.answers[op];
        if (const auto b = r.bounds.find(op); b != r.bounds.end()) {
            const Verdict v = verdict_of(a, b->second);
            if (v == Verdict::refuted) return exit_refuted;
            if (v == Verdict::unknown) code = exit_unknown;
        } else if (r.bounds.empty() && a.status != WcrtStatus::exact) {
            code = exit_unknown;
        }
    }
    return code;
}

// wcrt: the first operation's witness; certify: the first refuted operation's (in file order).
AllTimeFiles files_of(const AllTimeRequest& r, const Workload& w, const AllTimeResult& res) {
    AllTimeFiles f{r.command, r.options.file, r.options.svg, r.toml, {}, {}};
    std::vector<MarginRow> rows;
    for (const int op : r.ops) {
        const auto b = r.bounds.find(op);
        const std::optional<Time> bound = b != r.bounds.end() ? std::optional(b->second) : w.ops[op].deadline;
        const WcrtAnswer& a = res.answers[op];
        rows.push_back({op, bound, a.lower, a.upper, has_witnessed_frame(res, op)});
    }
    f.chart_op = chart_operation(rows, r.chart_op);
    for (const MarginRow& row : rows)
        if (row.op == f.chart_op) f.chart_bound = row.bound;
    f.window = svg_window(r.options);
    if (r.bounds.empty()) {
        if (!r.ops.empty()) f.op = r.ops.front();
        return f;
    }
    for (const auto& [op, bound] : r.bounds)
        if (verdict_of(res.answers[op], bound) == Verdict::refuted) {
            f.op = op;
            f.bound = bound;
            break;
        }
    return f;
}

}  // namespace

int run_all_time(const AllTimeRequest& r, const Workload& w) {
    const VerifyOptions& o = r.options;
    if (o.engine != "auto")
        throw option_error("--engine",
                           "'" + o.engine +
                               "' analyses one frame; a workload with periodic streams is analysed for all time by "
                               "the default engine, auto (docs/all-time.md)");
    const Budget budget = run_budget(o);
    Progress progress(r.command);
    progress.watch(budget);
    progress.set_phase("all-time analysis of the frames");
    const AllTimeResult res = all_time_bounds(w, budget);
    progress.set_phase("writing the result");
    const std::string wrote = write_all_time_files(files_of(r, w, res), w, res);
    if (o.json || o.csv) {
        OutputContext context = verify_context(r.command, o, w);
        Json list = Json::array();
        for (const int op : r.ops) list.push_back(row_json(r, w, res, op));
        if (o.csv) {
            std::vector<std::string> columns{"operation", "kind",        "stream",      "wcrt",           "upper_bound",
                                             "status",    "lower_bound", "frame",       "unknown_reason", "lower_by",
                                             "upper_by",  "deadline",    "deadline_met"};
            if (!r.bounds.empty()) columns.insert(columns.begin() + 1, {"bound", "verdict"});
            std::cout << csv_from_json(list, columns, bound_csv_times);
            return exit_code(r, res);
        }
        Json body = {{"engine", "all-time"},
                     {"hyperperiod", exact_string(res.hyperperiod)},
                     {"closed_after_hyperperiods", res.closed_after},
                     {"steady_over_hyperperiods", res.steady_over},
                     {"explored_window_hyperperiods", res.explored_window},
                     {"busy_window", time_or_null(res.busy_window)},
                     {"overload", res.overload ? Json{{"stream", res.overload->stream < 0
                                                                     ? Json(nullptr)
                                                                     : Json(w.streams[res.overload->stream].name)},
                                                      {"reason", res.overload->reason}}
                                               : Json(nullptr)},
                     {"simulations", res.simulations},
                     {"operations", list},
                     {"assumptions", assumptions_json(all_time_assumptions(o, w))}};
        std::cout << with_context(context, body).dump(2) << '\n';
        return exit_code(r, res);
    }
    print_table(r, w, res);
    if (!wrote.empty()) std::cout << wrote << '\n';
    return exit_code(r, res);
}

}  // namespace gpuwcrt::app
