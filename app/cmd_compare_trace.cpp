#include <iostream>
#include <memory>

#include "app/cli_options.hpp"
#include "app/commands.hpp"
#include "app/output_file.hpp"
#include "app/phase_progress.hpp"
#include "model/contexts/contexts.hpp"
#include "model/frames/one_frame.hpp"
#include "report/context/output_context.hpp"
#include "report/trace/trace_compare.hpp"
#include "report/trace/trace_svg.hpp"

namespace gpuwcrt::app {
namespace {

struct CompareOptions {
    std::string workload;
    std::vector<std::string> logs;
    std::string policy;
    std::string instant = "after";
    bool json = false;
    std::string svg;
};

int run_compare(const CompareOptions& o) {
    check_output_paths({{"--svg", o.svg}}, {o.workload}, o.logs);
    Progress progress("compare-trace");
    progress.set_phase("comparing " + o.workload + " with " + std::to_string(o.logs.size()) + " logs");
    const Workload w = load_workload_file(o.workload);
    require_one_context(w, "gpuwcrt compare-trace");
    require_one_frame(w, "gpuwcrt compare-trace");
    check_block_outputs(w, o.svg);
    std::vector<ExaminerLog> logs;
    for (const std::string& path : o.logs) logs.push_back(read_examiner_log_file(path));
    TraceCompareOptions to;
    if (!o.policy.empty()) to.policy = o.policy;
    to.instant = o.instant == "before" ? LaunchInstant::before : LaunchInstant::after;
    const TraceComparison c = compare_trace(w, logs, to);
    if (!o.svg.empty())
        write_output_file(o.svg, trace_svg(c.measured_workload, c.measured, c.workload, c.predicted),
                          "SVG chart of the measured and the predicted schedule");
    if (o.json) {
        OutputContext context = workload_context("compare-trace", o.workload, w);
        context.time_unit = "s";  // the examiner's logs are in seconds, whatever the workload says
        context.options = {
            {"logs", o.logs}, {"policy", o.policy.empty() ? Json(nullptr) : Json(o.policy)}, {"issue", o.instant}};
        std::cout << with_context(context, trace_comparison_json(c)).dump(2) << '\n';
    } else print_trace_comparison(std::cout, c);
    return 0;
}

}  // namespace

void add_compare_trace_command(CLI::App& cli, Action& action) {
    auto o = std::make_shared<CompareOptions>();
    CLI::App* sub = cli.add_subcommand(
        "compare-trace",
        "Replay a workload with the launch times measured by cuda_scheduling_examiner and compare\n"
        "the simulated schedule with the logged one: per kernel measured vs predicted completion and\n"
        "response time, the largest block start/end deviation, and how many blocks ran on the\n"
        "predicted SM. Time 0 is the earliest 'before launch' time over all logs.");
    sub->add_option("workload", o->workload, "workload TOML (e.g. from import-examiner)")->required();
    sub->add_option("logs", o->logs, "examiner result logs, one per benchmark, matched by their \"label\"")->required();
    add_policy_option(sub, o->policy);
    sub->add_option("--issue", o->instant,
                    "which logged launch instant is the issue time: 'after' (default: when the launch\n"
                    "call returned, cuda_launch_times[1]) or 'before' (when it was entered, [0])")
        ->check(CLI::IsMember({"before", "after"}));
    add_exact_option(sub);
    sub->add_flag("--json", o->json,
                  "print JSON: the run's context, then per kernel measured and predicted times (exact\n"
                  "strings, seconds), deadline and deadline_met (measured); schema: docs/schema/compare-trace.json");
    sub->add_option("--svg", o->svg, "write measured and predicted Gantt charts, one above the other");
    sub->callback([o, &action] { action = [o] { return run_compare(*o); }; });
}

}  // namespace gpuwcrt::app
