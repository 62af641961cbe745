#include <iostream>
#include <memory>

#include "app/chart_choice.hpp"
#include "app/cli_options.hpp"
#include "app/commands.hpp"
#include "app/frames/frames_outputs.hpp"
#include "app/phase_progress.hpp"
#include "app/output_file.hpp"
#include "report/context/output_context.hpp"
#include "model/frames/unroll.hpp"
#include "report/csv/csv_rows.hpp"
#include "report/frames/frames_report.hpp"
#include "report/schedule_json.hpp"
#include "report/schedule_table.hpp"
#include "sim/simulate.hpp"

namespace gpuwcrt::app {
namespace {

struct SimulateOptions {
    std::string file;
    std::optional<std::string> order;
    std::string policy;
    bool json = false;
    bool csv = false;
    bool blocks = false;
    std::string svg;
    std::optional<std::string> svg_window;
    std::optional<std::int64_t> frames;
    std::optional<std::string> until;
};

const std::vector<std::string> simulate_csv_columns{"operation", "kind",     "stream",   "issue",       "start",
                                                    "finish",    "response", "deadline", "deadline_met"};
const std::vector<std::string> frames_csv_columns{"operation", "origin",   "frame",    "kind",
                                                  "stream",    "release",  "issue",    "start",
                                                  "finish",    "response", "deadline", "deadline_met"};

// --frames N, --until T, or the default (one hyperperiod); either option needs frames to run.
std::optional<Horizon> horizon_of(const SimulateOptions& o, const Workload& w) {
    const char* given = o.frames ? "--frames" : o.until ? "--until" : nullptr;
    if (!w.repeats()) {
        if (given) throw option_error(given, "the workload has no periodic or sporadic stream: it runs once");
        return std::nullopt;
    }
    if (o.frames) return Horizon::of_frames(*o.frames, {"gpuwcrt: --frames", 0, 0});
    if (!o.until) return Horizon{};
    const std::optional<Time> t = parse_time(*o.until);
    if (!t || *t < 0)
        throw option_error("--until", "must be an exact time >= 0 (e.g. 100, 2.5 or 1/3), got '" + *o.until + "'");
    return Horizon::up_to(*t, {"gpuwcrt: --until", 0, 0});
}

int run_simulate(const SimulateOptions& o) {
    check_output_paths({{"--svg", o.svg}}, {o.file});
    const std::optional<TimeWindow> window = svg_window(o.svg_window, o.svg);  // an input error before any work
    Progress progress("simulate");
    progress.set_phase("loading " + o.file);
    const Workload file = load_workload_file(o.file);
    const std::optional<Horizon> horizon = horizon_of(o, file);
    const std::optional<Unrolled> unrolled = horizon ? std::optional(unroll(file, *horizon)) : std::nullopt;
    const Workload& w = unrolled ? unrolled->workload : file;
    // A chart of frames draws its stream lanes at any size, and its SM lanes up to the limit.
    check_block_outputs(w, unrolled ? "" : o.svg, o.json ? "--json" : o.blocks ? "--blocks" : "");
    const Scenario sc = scenario_for(w, names_of(o.order, "--order"),
                                     o.policy.empty() ? std::nullopt : std::optional<std::string>(o.policy));
    progress.set_phase("simulating " + std::to_string(w.ops.size()) + " operations");
    // Only the block table (--blocks), the JSON and the chart show blocks.
    const bool shows_blocks = o.blocks || o.json || !o.svg.empty();
    const Schedule s = simulate(w, sc, shows_blocks ? BlockRecord::kept : BlockRecord::dropped);
    progress.set_phase("writing the result");
    if (!o.svg.empty()) {
        ChartContext ctx = schedule_chart(w);
        ctx.window = window;
        if (unrolled)
            write_frames_svg(o.svg, FramesChart{file, *unrolled, s, sc.issue_at, w.total_blocks() <= max_svg_blocks},
                             ctx);
        else write_gantt_svg(o.svg, w, s, ctx);
    }
    if (!o.json && !o.csv) {
        if (unrolled) print_frames_table(std::cout, file, *horizon, *unrolled, s, o.blocks);
        else print_schedule_table(std::cout, w, s, o.blocks);
        return 0;
    }
    OutputContext context = workload_context("simulate", o.file, w);
    context.options = {{"order", o.order ? Json(*o.order) : Json(nullptr)},
                       {"policy", o.policy.empty() ? Json(nullptr) : Json(o.policy)}};
    if (unrolled) {
        context.options["frames"] = o.frames ? Json(*o.frames) : Json(nullptr);
        context.options["until"] = o.until ? Json(*o.until) : Json(nullptr);
    }
    Json body = schedule_json(w, s, o.json);
    if (unrolled) add_frames_json(body, file, *horizon, *unrolled, s);
    const Json out = with_context(context, body);
    if (o.json) std::cout << out.dump(2) << '\n';
    else
        std::cout << csv_from_json(out["operations"], unrolled ? frames_csv_columns : simulate_csv_columns,
                                   schedule_csv_times);
    return 0;
}

}  // namespace

void add_simulate_command(CLI::App& cli, Action& action) {
    auto o = std::make_shared<SimulateOptions>();
    CLI::App* sub = cli.add_subcommand(
        "simulate",
        "Run the TX2 block-scheduling rules (docs/theory/semantics.md §4) on one scenario and print every operation's\n"
        "issue, start, finish and response time (and, with --blocks or --json, every block).");
    sub->add_option("file", o->file, "workload TOML file ('-' reads standard input)")->required();
    add_names_option(sub, "--order", o->order,
                     "launch order among operations issued at the same instant, as comma-separated\n"
                     "names (e.g. K2,K3,K4,K1); unnamed operations follow in file order. An order\n"
                     "that breaks stream order or issue times is an input error.");
    add_policy_option(sub, o->policy);
    CLI::Option* json =
        sub->add_flag("--json", o->json,
                      "print JSON: the run's context (tool, command, input, options, time_unit), operations\n"
                      "and blocks, times as exact strings (\"3/2\"); schema: docs/schema/simulate.json");
    CLI::Option* csv = sub->add_flag("--csv", o->csv,
                                     "print CSV: a header row, then one row per operation (operation, kind, stream,\n"
                                     "issue, start, finish, response, deadline, deadline_met; times as in --json)")
                           ->excludes(json);
    add_exact_option(sub);
    sub->add_flag("--blocks", o->blocks, "also list every block (SM, start, end) in the table")->excludes(csv);
    sub->add_option("--svg", o->svg,
                    "write a Gantt chart (one lane per SM, a CE lane for copies); with periodic or sporadic\n"
                    "streams, one lane per stream above them showing every frame from release to completion");
    add_svg_window_option(sub, o->svg_window, false);
    CLI::Option* frames =
        sub->add_option("--frames", o->frames,
                        "with periodic or sporadic streams: simulate N frames of each (at most 100000); the\n"
                        "default is one hyperperiod of their periods (docs/theory/semantics.md §9)");
    sub->add_option("--until", o->until,
                    "with periodic or sporadic streams: simulate every frame released by T (an exact time)")
        ->excludes(frames);
    sub->callback([o, &action] { action = [o] { return run_simulate(*o); }; });
}

}  // namespace gpuwcrt::app
