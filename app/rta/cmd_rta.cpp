#include <iostream>
#include <memory>

#include "app/cli_options.hpp"
#include "app/commands.hpp"
#include "app/phase_progress.hpp"
#include "bounds/rta/rta_workload.hpp"
#include "report/json.hpp"
#include "report/text_table.hpp"

namespace gpuwcrt::app {
namespace {

struct RtaOptions {
    std::string file;
    std::optional<std::string> order;
    bool json = false;
};

std::string joined(const std::vector<std::string>& items, const std::string& sep) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
    return out;
}

Json rta_json(const Workload& w, const RtaOutcome& r) {
    Json ops = Json::array();
    for (std::size_t i = 0; i < r.order.size(); ++i) {
        const Operation& o = w.ops[r.order[i]];
        const Time response = r.finish[i] - r.release[i];
        ops.push_back({{"name", o.name},
                       {"issue", exact_string(r.release[i])},
                       {"finish", exact_string(r.finish[i])},
                       {"response", exact_string(response)},
                       {"deadline", o.deadline ? Json(exact_string(*o.deadline)) : Json(nullptr)},
                       {"meets_deadline", o.deadline ? Json(response <= *o.deadline) : Json(nullptr)}});
    }
    return {{"scope", rta_scope_name(r.exact())}, {"reasons", r.reasons}, {"g_max", r.big.g_max}, {"operations", ops}};
}

void print_rta(std::ostream& out, const Workload& w, const RtaOutcome& r) {
    std::vector<std::string> names;
    for (int op : r.order) names.push_back(w.ops[op].name);
    out << "thesis RTA, one big SM: g_max = " << r.big.g_max << " slots of " << r.big.slot_threads
        << " threads\nlaunch order: " << joined(names, ", ") << '\n';
    out << (r.closed_form ? "method: closed form (thesis §3.6, eq. 3.8-3.15: every C equal, common release), "
                            "equal to Algorithm 2\n"
                          : "method: Algorithm 2 (thesis §3.4) with release times\n");
    if (r.exact()) out << "scope: exact\n";
    else out << "scope: approximation (outside the thesis' assumptions):\n";
    for (const std::string& reason : r.reasons) out << "  - " << reason << '\n';
    if (const auto unit = time_unit_name(w.time_unit)) out << "times in " << *unit << '\n';
    out << '\n';
    TextTable t({"kernel", "issue", "finish", "response", "deadline", "met"});
    for (std::size_t i = 0; i < r.order.size(); ++i) {
        const Operation& o = w.ops[r.order[i]];
        const Time response = r.finish[i] - r.release[i];
        t.add({o.name, r.release[i], r.finish[i], response, o.deadline,
               o.deadline ? (response <= *o.deadline ? "yes" : "MISSED") : "-"});
    }
    t.print(out);
}

int run_rta(const RtaOptions& o) {
    PhaseProgress progress("rta");
    progress.set_phase("loading " + o.file);
    const Workload w = load_workload_file(o.file);
    progress.set_phase("analysing " + std::to_string(w.ops.size()) + " operations");
    // Same validation of --order (and of a [scenario] table's order) as `simulate`.
    const Scenario sc = scenario_for(w, names_of(o.order, "--order"), std::nullopt);
    const RtaOutcome r = rta(w, rta_launch_order(w, sc.rank));
    progress.set_phase("writing the result");
    if (o.json) std::cout << rta_json(w, r).dump(2) << '\n';
    else print_rta(std::cout, w, r);
    return 0;
}

}  // namespace

void add_rta_command(CLI::App& cli, Action& action) {
    auto o = std::make_shared<RtaOptions>();
    CLI::App* sub =
        cli.add_subcommand("rta",
                           "The thesis response-time analysis (Algorithm 2 on one big SM, with release times; the\n"
                           "closed form when every C is equal and all kernels are released together) for one launch\n"
                           "order. Says whether the workload is inside the thesis' exactness scope (then the result\n"
                           "equals `simulate`) or the figure is only an approximation, and why.");
    sub->add_option("file", o->file, "workload TOML file ('-' reads standard input)")->required();
    add_names_option(sub, "--order", o->order,
                     "launch order among operations issued at the same instant, as comma-separated\n"
                     "names (as for simulate); default: the [scenario] order, else file order");
    sub->add_flag("--json", o->json, "print JSON: scope, reasons, g_max, operations (times as exact strings, \"3/2\")");
    sub->callback([o, &action] { action = [o] { return run_rta(*o); }; });
}

}  // namespace gpuwcrt::app
