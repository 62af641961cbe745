#include <iostream>
#include <memory>

#include "app/cli_options.hpp"
#include "app/commands.hpp"
#include "app/phase_progress.hpp"
#include "bounds/rta/rta_workload.hpp"
#include "model/contexts/contexts.hpp"
#include "model/frames/one_frame.hpp"
#include "model/time_less.hpp"
#include "report/compact/compact_list.hpp"
#include "report/context/output_context.hpp"
#include "report/csv/csv_rows.hpp"
#include "report/json.hpp"
#include "report/text_table.hpp"

namespace gpuwcrt::app {
namespace {

struct RtaOptions {
    std::string file;
    std::optional<std::string> order;
    bool json = false;
    bool csv = false;
};

const std::vector<std::string> rta_csv_columns{"operation", "kind",           "stream",   "issue",       "finish",
                                               "response",  "meets_deadline", "deadline", "deadline_met"};

// The RTA's finish and response bound the kernel's: rounded up.
const CsvTimes rta_csv_times = csv_times({}, {"finish", "response"}, {"issue", "deadline"});

std::string joined(const std::vector<std::string>& items, const std::string& sep) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) out += sep;
        out += items[i];
    }
    return out;
}

Json rta_json(const Workload& w, const RtaOutcome& r) {
    Json ops = Json::array();
    for (std::size_t i = 0; i < r.order.size(); ++i) {
        const Operation& o = w.ops[r.order[i]];
        const Time response = r.finish[i] - r.release[i];
        // meets_deadline: the RTA's prediction; deadline_met: a fact about the TX2, so only
        // where the RTA is exact (docs/decisions/0020-json-and-csv-claims.md, "rta's deadline_met").
        const std::optional<bool> predicted = o.deadline ? std::optional(response <= *o.deadline) : std::nullopt;
        Json j = {{"name", o.name},
                  {"kind", o.is_kernel() ? "kernel" : "copy"},
                  {"stream", w.streams[o.stream].name},
                  {"issue", exact_string(r.release[i])},
                  {"finish", exact_string(r.finish[i])},
                  {"response", exact_string(response)},
                  {"meets_deadline", predicted ? Json(*predicted) : Json(nullptr)}};
        add_deadline(j, o.deadline, r.exact() ? predicted : std::nullopt);
        ops.push_back(std::move(j));
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
    for (const std::string& reason : r.reasons) out << bullet_item(reason);
    if (const auto unit = time_unit_name(w.time_unit)) out << "times in " << *unit << '\n';
    out << '\n';
    // Outside its scope the RTA predicts; a verdict on the TX2 is certify's.
    TextTable t({"kernel", "issue", "finish", "response", "deadline", r.exact() ? "met" : "rta met?"});
    for (std::size_t i = 0; i < r.order.size(); ++i) {
        const Operation& o = w.ops[r.order[i]];
        const Time response = time_difference(r.finish[i], r.release[i]);
        t.add({o.name, r.release[i], TableCell::upper(r.finish[i]), TableCell::upper(response), o.deadline,
               o.deadline ? (!time_less(*o.deadline, response) ? "yes" : "MISSED") : "-"});
    }
    t.print(out);
    bool deadlines = false;
    for (int op : r.order) deadlines = deadlines || w.ops[op].deadline;
    if (!r.exact() && deadlines)
        out << "rta met?: the RTA's prediction, not a verdict (scope: approximation); 'gpuwcrt certify' "
               "decides the deadlines\n";
}

int run_rta(const RtaOptions& o) {
    Progress progress("rta");
    progress.set_phase("loading " + o.file);
    const Workload w = load_workload_file(o.file);
    require_one_context(w, "gpuwcrt rta");
    require_one_frame(w, "gpuwcrt rta");
    progress.set_phase("analysing " + std::to_string(w.ops.size()) + " operations");
    // Same validation of --order (and of a [scenario] table's order) as `simulate`.
    const Scenario sc = scenario_for(w, names_of(o.order, "--order"), std::nullopt);
    const RtaOutcome r = rta(w, rta_launch_order(w, sc.rank));
    progress.set_phase("writing the result");
    if (!o.json && !o.csv) {
        print_rta(std::cout, w, r);
        return 0;
    }
    OutputContext context = workload_context("rta", o.file, w);
    context.options = {{"order", o.order ? Json(*o.order) : Json(nullptr)}};
    const Json out = with_context(context, rta_json(w, r));
    if (o.json) std::cout << out.dump(2) << '\n';
    else std::cout << csv_from_json(out["operations"], rta_csv_columns, rta_csv_times);
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
    CLI::Option* json =
        sub->add_flag("--json", o->json,
                      "print JSON: context (tool, command, input, options, time_unit), scope, reasons, g_max,\n"
                      "operations (times as exact strings, \"3/2\"; schema: docs/schema/rta.json)");
    add_exact_option(sub);
    sub->add_flag("--csv", o->csv,
                  "print CSV: a header row, then one row per operation (operation, kind, stream, issue,\n"
                  "finish, response, meets_deadline: the RTA's prediction, deadline, deadline_met: only\n"
                  "where the RTA is exact)")
        ->excludes(json);
    sub->callback([o, &action] { action = [o] { return run_rta(*o); }; });
}

}  // namespace gpuwcrt::app
