#include <algorithm>
#include <iostream>
#include <memory>
#include <sstream>

#include "app/answer_rows.hpp"
#include "app/assumptions/answer_assumptions.hpp"
#include "app/chart_choice.hpp"
#include "app/cli_options.hpp"
#include "app/engine_run.hpp"
#include "app/commands.hpp"
#include "app/exit_codes.hpp"
#include "app/frames/all_time_outputs.hpp"
#include "app/output_file.hpp"
#include "app/resource_limits.hpp"
#include "app/verification.hpp"
#include "model/time_unit.hpp"
#include "report/compact/compact_list.hpp"
#include "report/display_width.hpp"
#include "report/csv/csv_rows.hpp"
#include "report/provenance.hpp"
#include "report/text_table.hpp"
#include "sim/simulate.hpp"

namespace gpuwcrt::app {
namespace {

int exit_code(const std::vector<WcrtAnswer>& answers, const Budget& run);

struct WcrtOptions : VerifyOptions {
    std::vector<std::string> ops;
    std::string witness;  // TOML output: the first analysed operation's witness
    std::optional<std::string> rta_timeout;
};

std::vector<int> selected_ops(const Workload& w, const std::vector<std::string>& names) {
    std::vector<int> out;
    for (const auto& n : names) {
        auto i = w.find_op(n);
        if (!i) throw option_error("--op", "unknown operation '" + n + "'");
        if (std::find(out.begin(), out.end(), *i) != out.end())
            throw option_error("--op", "operation '" + n + "' is given twice");
        out.push_back(*i);
    }
    if (out.empty())
        for (std::size_t i = 0; i < w.ops.size(); ++i) out.push_back(static_cast<int>(i));
    return out;
}

// The first analysed operation's witness as a replayable TOML file (like certify's
// --counterexample); false when the engine found no scenario for it.
bool write_witness(const WcrtOptions& o, const Workload& w, const WcrtAnswer& a) {
    if (!a.witness || !a.lower) return false;
    const std::string what = a.status == WcrtStatus::exact ? "its WCRT" : "a lower bound on its WCRT (run unfinished)";
    const std::string why = "Witness: '" + w.ops[a.op].name + "' responds in " + human_string(*a.lower) + ", " + what +
                            " (gpuwcrt wcrt " + o.file + ")";
    write_output_file(o.witness, witness_toml(w, *a.witness, why),
                      "workload TOML of " + w.ops[a.op].name + "'s witness");
    return true;
}

Json answers_json(const Workload& w, const std::vector<WcrtAnswer>& answers, const RtaColumns& rta) {
    Json list = Json::array();
    for (const WcrtAnswer& a : answers) {
        const Json middle = {{"witness", a.witness ? witness_json(w, *a.witness) : Json(nullptr)},
                             {"rta_file_order", time_or_null(rta.file_order[a.op])},
                             {"rta_max_over_orders", rta_max_json(rta, a.op)}};
        list.push_back(answer_row_json(w, a, middle));
    }
    return list;
}

const std::vector<std::string> wcrt_csv_columns = answer_csv_columns(
    {"rta_file_order", "rta_max_over_orders", "rta_max_over_orders.lower", "rta_max_over_orders.upper"});

// The table's text; `orders`: with the witness order column.
std::string wcrt_table_text(const WcrtOptions& o, const Workload& w, const std::vector<WcrtAnswer>& answers,
                            const RtaColumns& rta, bool deadlines, bool orders) {
    // wcrt: the worst replayed response found (the WCRT when exact, else a lower bound);
    // upper bound: proven (equal to wcrt when exact; the busy-time bound otherwise).
    // by: the engine that gave wcrt, and after a slash the one that proved the upper bound when
    // another (auto combines them).
    std::vector<std::string> header{"operation", "wcrt", "upper bound", "status", "by"};
    if (orders) header.push_back("witness order");
    if (deadlines) header.insert(header.begin() + 4, {"deadline", "met", "margin"});
    header.insert(header.end(), {"rta(file order)", rta_max_header(rta)});
    TextTable t(header);
    for (const WcrtAnswer& a : answers) {
        std::string status = to_string(a.status);
        if (a.status == WcrtStatus::unknown) status += " (" + a.unknown_reason + ")";
        std::vector<TableCell> row{w.ops[a.op].name, TableCell::lower(a.lower), TableCell::upper(a.upper), status,
                                   by_text(a)};
        if (orders) row.push_back(a.witness ? witness_order(w, *a.witness, o.wide) : "");
        if (deadlines)
            row.insert(row.begin() + 4,
                       {w.ops[a.op].deadline, met_text(w, a), TableCell::lower(deadline_margin(w, a))});
        row.insert(row.end(), {TableCell::upper(rta.file_order[a.op]), rta_max_text(rta, a.op)});
        t.add(row);
    }
    std::ostringstream out;
    t.print(out);
    return out.str();
}

std::size_t widest_line(const std::string& text) {
    std::size_t widest = 0, from = 0;
    while (from < text.size()) {
        const std::size_t end = std::min(text.find('\n', from), text.size());
        widest = std::max(widest, display_width(text.substr(from, end - from)));
        from = end + 1;
    }
    return widest;
}

void print_wcrt_table(const WcrtOptions& o, const Workload& w, const std::vector<WcrtAnswer>& answers,
                      const RtaColumns& rta) {
    bool deadlines = false;
    for (const WcrtAnswer& a : answers) deadlines = deadlines || w.ops[a.op].deadline;
    // A row stays within about 120 columns: when the witness orders would pass that, they
    // leave the table for --wide, the JSON and --witness.
    std::string text = wcrt_table_text(o, w, answers, rta, deadlines, true);
    const bool drop_orders = !o.wide && widest_line(text) > 120;
    if (drop_orders) text = wcrt_table_text(o, w, answers, rta, deadlines, false);
    std::cout << text;
    if (drop_orders) std::cout << "witness orders: --wide, --json or --witness\n";
    if (deadlines)
        std::cout << "met: yes when the upper bound is within the deadline, MISSED when the wcrt exceeds it; "
                     "margin: deadline - upper bound\n";
}

// --witness of the first analysed operation and --svg of the charted one (the first --op, else
// the critical one), one frame; whether the witness was written.
bool write_block_files(const WcrtOptions& o, const Workload& w, const std::vector<WcrtAnswer>& answers,
                       const EngineRun& run) {
    const WcrtAnswer& first = answers.front();
    const bool wrote_witness = !o.witness.empty() && write_witness(o, w, first);
    if (!o.svg.empty()) {
        const std::optional<int> given = o.ops.empty() ? std::nullopt : std::optional(first.op);
        write_answer_chart(o, w, run.answers[*chart_operation(margin_rows(w, answers), given)]);
    }
    if (!o.witness.empty() && !wrote_witness)
        std::cerr << "gpuwcrt wcrt: no scenario of '" << w.ops[first.op].name
                  << "' was found in time: no witness written to " << o.witness << "\n";
    return wrote_witness;
}

void print_block_outputs(const WcrtOptions& o, const Workload& w, const std::vector<WcrtAnswer>& answers,
                         const RtaColumns& rta, const EngineRun& run) {
    const bool wrote_witness = write_block_files(o, w, answers, run);
    if (o.json || o.csv) {
        OutputContext context = verify_context("wcrt", o, w);
        context.options["op"] = o.ops;
        context.options["rta_timeout"] = o.rta_timeout ? Json(*o.rta_timeout) : Json(nullptr);
        Json list = answers_json(w, answers, rta);
        if (o.csv) {
            std::cout << csv_from_json(list, wcrt_csv_columns, bound_csv_times);
            return;
        }
        // Built key by key and moved: a brace list would copy the operations (10^4 of them).
        Json body = {{"engine", o.engine}, {"policy", o.policy}};
        body["operations"] = std::move(list);
        body["stats"] = stats_json(run);
        body["rta_scope"] = rta.scope;
        body["rta_scope_reasons"] = rta.reasons;
        body["assumptions"] = assumptions_json(answer_assumptions(w, o, run.arguments));
        std::cout << with_context(context, std::move(body)).dump(2) << '\n';
        return;
    }
    std::cout << "engine: " << o.engine << ", SM placement: " << o.policy << "\n";
    if (const auto unit = time_unit_name(w.time_unit)) std::cout << "times in " << *unit << '\n';
    print_wcrt_table(o, w, answers, rta);
    print_assumptions(std::cout, answer_assumptions(w, o, run.arguments));
    std::cout << "RTA scope: " << rta.scope << (rta.reasons.empty() ? "\n" : " (outside the thesis' assumptions):\n");
    for (const auto& r : rta.reasons) std::cout << bullet_item(r);
    if (!rta.max_note.empty())
        std::cout << "rta(max over orders) stopped: " << rta.max_note
                  << "; an undecided maximum shows [lower, upper]\n";
    std::cout << stats_line(run) << "\n";
    if (wrote_witness)
        std::cout << "wrote " << o.witness << " (gpuwcrt simulate " << o.witness << " reproduces "
                  << w.ops[answers.front().op].name << "'s response " << human_string(*answers.front().lower) << ")\n";
}

int run_wcrt(const WcrtOptions& o) {
    catch_interrupts();
    check_output_paths({{"--witness", o.witness}, {"--svg", o.svg}}, {o.file});
    (void)svg_window(o);  // a bad --svg-window is an input error before any work
    const Workload w = load_workload_file(o.file);
    const Engine& engine = engine_for(o.engine, w);
    require_engine_scope(engine, w, "gpuwcrt wcrt");
    // The RTA columns and the one-frame charts are of one frame; over frames the engine's own
    // outputs name the frame of each lower bound.
    const bool frames = engine.ranges_over_frames();
    if (!frames) check_block_outputs(w, o.svg);
    const std::vector<int> ops = selected_ops(w, o.ops);
    const EngineOptions eo = engine_options(o);  // a bad --timeout is an input error before any work
    const Budget budget = whole_run_budget(o, w, engine);
    const std::chrono::milliseconds rta_cap = rta_timeout(o.rta_timeout);
    Progress progress("wcrt");
    progress.watch(budget);
    std::optional<RtaColumnsJob> rta_job;  // beside the engines, from the start
    if (!frames) rta_job.emplace(w, budget, rta_cap, default_rta_reserve);
    const Budget engines = engines_budget(budget, w.ops.size());
    const EngineRun run = engine.run(EngineRequest{w, ops, eo, {}, progress.sink()}, engines);
    require_policy_witnesses(w, eo.policy, run);
    std::vector<WcrtAnswer> answers;
    for (int op : ops) answers.push_back(run.answers[op]);
    for (WcrtAnswer& a : answers) a.unknown_reason = stop_reason_text(a.unknown_reason, engines);
    if (const std::string note = stop_note(engines); !note.empty()) std::cerr << "gpuwcrt wcrt: " << note << "\n";
    if (!rta_job) {
        const std::optional<int> chart_op = o.ops.empty() ? std::nullopt : std::optional(ops[0]);
        print_all_time({"wcrt", o, ops, {}, o.witness, answer_assumptions(w, o, run.arguments), chart_op}, w, run);
        return exit_code(answers, budget);
    }
    budget.counters().phase = "rta(max over orders)";
    const RtaColumns rta = rta_job->finish();
    print_block_outputs(o, w, answers, rta, run);
    return exit_code(answers, budget);
}

// An interrupted run did not finish, whatever it decided: exit 2.
int exit_code(const std::vector<WcrtAnswer>& answers, const Budget& run) {
    if (run.expired() && run.expiry_reason() == StopReason::interrupted) return exit_unknown;
    for (const auto& a : answers)
        if (a.status == WcrtStatus::unknown) return exit_unknown;
    return exit_ok;
}

}  // namespace

void add_wcrt_command(CLI::App& cli, Action& action) {
    auto o = std::make_shared<WcrtOptions>();
    CLI::App* sub = cli.add_subcommand(
        "wcrt",
        "Worst-case response time of each operation over ALL scenarios (launch orders among\n"
        "simultaneous issues, SM placements, block times in their intervals, issue instants in their\n"
        "windows), with a witness scenario that the simulator replays, next to the thesis RTA for\n"
        "the file order and maximised over all orders. Per operation: 'wcrt' is the worst replayed\n"
        "response (a lower bound), 'upper bound' is proven, and the status is exact when they meet;\n"
        "'by' names the engines that gave them. Exit 0 when every value is exact, 2 when some is\n"
        "unknown. The default engine, auto, combines the others (docs/theory/verification-engines.md);\n"
        "with block-time intervals or issue windows the worst case can be a supremum that no\n"
        "scenario reaches, so it stays between its bounds. With periodic streams every frame of\n"
        "every operation is bounded, for all time, and 'frame' names the worst replayed frame\n"
        "(docs/theory/all-time.md; without --timeout the analysis takes at most 60 s).");
    add_verify_options(sub, *o);
    add_svg_window_option(sub, o->svg_window);
    add_rta_timeout_option(sub, o->rta_timeout);
    sub->add_option("--op", o->ops, "only these operations, in this order (repeatable; default all, in file order)");
    sub->add_option("--witness", o->witness,
                    "write the witness of the FIRST analysed operation (the first --op, else the first\n"
                    "operation of the file) as a TOML copy of the workload whose [scenario] fixes the\n"
                    "launch order and SM placement, so that 'gpuwcrt simulate' reproduces its WCRT; with\n"
                    "periodic streams, the unrolled frames (NAME#k) with the witnessed frame's releases fixed");
    sub->callback([o, &action] { action = [o] { return run_wcrt(*o); }; });
}

}  // namespace gpuwcrt::app
