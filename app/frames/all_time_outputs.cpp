#include "app/frames/all_time_outputs.hpp"

#include <iostream>

#include "app/answer_rows.hpp"
#include "app/chart_choice.hpp"
#include "app/cli_options.hpp"
#include "app/frames/frames_outputs.hpp"
#include "app/phase_progress.hpp"
#include "model/time_unit.hpp"
#include "report/context/output_context.hpp"
#include "report/csv/csv_rows.hpp"
#include "report/provenance.hpp"
#include "report/text_table.hpp"

namespace gpuwcrt::app {
namespace {

std::string status_text(const WcrtAnswer& a) {
    return a.status == WcrtStatus::exact ? "exact" : "unknown (" + a.unknown_reason + ")";
}

// The verdict on operation `op`'s bound, when certify checks one.
const CertifyAnswer* verdict_on(const AllTimeOutput& r, int op) {
    for (const CertifyAnswer& v : r.verdicts)
        if (v.op == op) return &v;
    return nullptr;
}

Json all_time_row_json(const AllTimeOutput& r, const Workload& w, const EngineRun& run, int op) {
    const WcrtAnswer& a = run.answers[op];
    return answer_row_json(w, a, {{"frame", a.frame ? Json(*a.frame) : Json(nullptr)}}, verdict_on(r, op));
}

std::string closure_text(const EngineRun& run) {
    const FramesRun& res = *run.frames;
    if (res.overload) return "no bound: " + res.overload->reason;
    if (run.arguments.empty()) {
        std::string why = "no all-time bound";
        if (!res.steady_why.empty()) why += ": no steady state (" + res.steady_why + ")";
        if (!res.explore_why.empty()) why += "; no exploration of the frames (" + res.explore_why + ")";
        if (!res.busy_why.empty())
            why += (res.steady_why.empty() ? ": " : "; ") + std::string("no busy window (") + res.busy_why + ")";
        return why;
    }
    std::string text;
    for (const std::string& p : run.arguments) text += (text.empty() ? "" : "; ") + p;
    return text + " (docs/theory/all-time.md)";
}

// The kinds of streams, for the table's title (time-sliced contexts bring one-frame workloads here).
std::string arrivals_text(const Workload& w, const Time& hyperperiod) {
    const std::string contexts = w.sliced() ? std::to_string(w.contexts.size()) + " time-sliced GPU contexts; " : "";
    if (!w.repeats()) return contexts + "one frame";
    bool sporadic = false;
    for (const Stream& s : w.streams) sporadic = sporadic || s.arrival.kind == Arrival::Kind::sporadic;
    return contexts +
           (sporadic ? "periodic and sporadic streams (hyperperiod of the periods and least inter-arrival times "
                     : "periodic streams (hyperperiod ") +
           human_string(hyperperiod) + ")";
}

void print_table(const AllTimeOutput& r, const Workload& w, const EngineRun& run) {
    const FramesRun& res = *run.frames;
    const bool certify = r.command == "certify";
    // certify's verdict says what status would: a second column would only disagree in words.
    bool deadlines = false;  // as over one frame: the deadline columns when some operation has one
    for (const int op : r.ops) deadlines = deadlines || w.ops[op].deadline;
    std::vector<std::string> header{"operation", "wcrt", "upper bound", "frame"};
    if (deadlines) header.insert(header.end(), {"deadline", "met"});
    if (!certify && deadlines) header.push_back("margin");
    if (!certify) header.push_back("status");
    if (certify) header.insert(header.begin() + 1, {"bound", "verdict", "margin"});
    header.push_back("by");
    TextTable t(header);
    for (const int op : r.ops) {
        const WcrtAnswer& a = run.answers[op];
        const std::string frame = a.frame ? std::to_string(*a.frame) : "-";
        std::vector<TableCell> row{w.ops[op].name, TableCell::lower(a.lower), TableCell::upper(a.upper), frame};
        if (deadlines) row.insert(row.end(), {w.ops[op].deadline, met_text(w, a)});
        if (!certify && deadlines) row.push_back(TableCell::lower(deadline_margin(w, a)));
        if (!certify) row.push_back(status_text(a));
        if (const CertifyAnswer* v = verdict_on(r, op))
            row.insert(row.begin() + 1, {v->bound, to_string(v->verdict), certified_margin_text(*v)});
        row.push_back(by_text(a));
        t.add(row);
    }
    std::cout << "all time, every frame of every operation; " << arrivals_text(w, res.hyperperiod) << '\n';
    if (const auto unit = time_unit_name(w.time_unit)) std::cout << "times in " << *unit << '\n';
    t.print(std::cout);
    std::cout << "wcrt: the worst replayed response of any frame (frame: which); upper bound: proven for every frame\n"
              << closure_text(run) << '\n'
              << "lower bounds: " << res.simulations << " simulated scenarios\n";
    print_assumptions(std::cout, r.assumptions);
}

// wcrt: the first operation's witness; certify: the first refuted operation's (in file order).
// --svg: the chosen or critical operation's witnessed frame.
AllTimeFiles files_of(const AllTimeOutput& r, const Workload& w, const EngineRun& run) {
    AllTimeFiles f{r.command, r.options.file, r.options.svg, r.toml, {}, {}};
    std::vector<WcrtAnswer> answers;
    for (const int op : r.ops) answers.push_back(run.answers[op]);
    // Over frames only an operation with a replayed frame can be drawn.
    std::vector<MarginRow> rows = r.verdicts.empty() ? margin_rows(w, answers) : margin_rows(r.verdicts);
    for (MarginRow& row : rows) row.charted = has_witnessed_frame(run, row.op);
    f.chart_op = chart_operation(rows, r.chart_op);
    for (const MarginRow& row : rows)
        if (row.op == f.chart_op) f.chart_bound = row.bound;
    f.window = svg_window(r.options);
    if (r.verdicts.empty()) {
        if (!r.ops.empty()) f.op = r.ops.front();
        return f;
    }
    for (const CertifyAnswer& v : r.verdicts)
        if (v.verdict == Verdict::refuted) {
            f.op = v.op;
            f.bound = v.bound;
            break;
        }
    return f;
}

}  // namespace

void print_all_time(const AllTimeOutput& r, const Workload& w, const EngineRun& run) {
    const VerifyOptions& o = r.options;
    const FramesRun& res = *run.frames;
    const std::string wrote = write_all_time_files(files_of(r, w, run), w, run);
    if (o.json || o.csv) {
        OutputContext context = verify_context(r.command, o, w);
        Json list = Json::array();
        for (const int op : r.ops) list.push_back(all_time_row_json(r, w, run, op));
        if (o.csv) {
            std::vector<std::string> after{"frame"};
            if (r.command == "certify") after.insert(after.end(), {"bound", "verdict"});
            std::cout << csv_from_json(list, answer_csv_columns(after), bound_csv_times);
            return;
        }
        Json body = {{"engine", std::string(engine_name::all_time)},
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
                     {"assumptions", assumptions_json(r.assumptions)}};
        // Under time slices only: each context's busy window and its longest wait for the GPU.
        if (!res.context_windows.empty()) {
            Json windows = Json::array();
            for (const ContextWindow& c : res.context_windows)
                windows.push_back(
                    {{"context", c.name}, {"gap", exact_string(c.gap)}, {"busy_window", exact_string(c.length)}});
            body["context_windows"] = windows;
        }
        std::cout << with_context(context, body).dump(2) << '\n';
        return;
    }
    print_table(r, w, run);
    if (!wrote.empty()) std::cout << wrote << '\n';
}

}  // namespace gpuwcrt::app
