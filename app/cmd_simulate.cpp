#include <iostream>
#include <memory>

#include "app/cli_options.hpp"
#include "app/commands.hpp"
#include "app/phase_progress.hpp"
#include "app/output_file.hpp"
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
    bool blocks = false;
    std::string svg;
};

int run_simulate(const SimulateOptions& o) {
    check_output_paths({{"--svg", o.svg}}, {o.file});
    PhaseProgress progress("simulate");
    progress.set_phase("loading " + o.file);
    const Workload w = load_workload_file(o.file);
    check_block_outputs(w, o.svg, o.json ? "--json" : o.blocks ? "--blocks" : "");
    const Scenario sc = scenario_for(w, names_of(o.order, "--order"),
                                     o.policy.empty() ? std::nullopt : std::optional<std::string>(o.policy));
    progress.set_phase("simulating " + std::to_string(w.ops.size()) + " operations");
    const Schedule s = simulate(w, sc);
    progress.set_phase("writing the result");
    if (!o.svg.empty()) write_gantt_svg(o.svg, w, s, schedule_chart(w));
    if (o.json) std::cout << schedule_json(w, s).dump(2) << '\n';
    else print_schedule_table(std::cout, w, s, o.blocks);
    return 0;
}

}  // namespace

void add_simulate_command(CLI::App& cli, Action& action) {
    auto o = std::make_shared<SimulateOptions>();
    CLI::App* sub =
        cli.add_subcommand("simulate",
                           "Run the TX2 block-scheduling rules (SPEC §4) on one scenario and print every operation's\n"
                           "issue, start, finish and response time (and, with --blocks or --json, every block).");
    sub->add_option("file", o->file, "workload TOML file ('-' reads standard input)")->required();
    add_names_option(sub, "--order", o->order,
                     "launch order among operations issued at the same instant, as comma-separated\n"
                     "names (e.g. K2,K3,K4,K1); unnamed operations follow in file order. An order\n"
                     "that breaks stream order or issue times is an input error.");
    add_policy_option(sub, o->policy);
    sub->add_flag("--json", o->json, "print JSON: operations and blocks, times as exact strings (\"3/2\")");
    sub->add_flag("--blocks", o->blocks, "also list every block (SM, start, end) in the table");
    sub->add_option("--svg", o->svg, "write a Gantt chart (one lane per SM, a CE lane for copies)");
    sub->callback([o, &action] { action = [o] { return run_simulate(*o); }; });
}

}  // namespace gpuwcrt::app
