#include <iostream>
#include <map>
#include <memory>

#include "app/answer_rows.hpp"
#include "app/assumptions/answer_assumptions.hpp"
#include "app/chart_choice.hpp"
#include "app/cli_options.hpp"
#include "app/cpu/certify_requirements.hpp"
#include "app/engine_run.hpp"
#include "app/commands.hpp"
#include "app/exit_codes.hpp"
#include "app/frames/all_time_outputs.hpp"
#include "app/output_file.hpp"
#include "app/resource_limits.hpp"
#include "app/verification.hpp"
#include "model/time_unit.hpp"
#include "report/csv/csv_rows.hpp"
#include "report/provenance.hpp"
#include "report/text_table.hpp"
#include "sim/simulate.hpp"

namespace gpuwcrt::app {
namespace {

struct CertifyOptions : VerifyOptions {
    std::vector<std::string> bounds;  // NAME=VALUE
    bool only_bounds = false;
    std::string counterexample;
};

std::string trimmed(const std::string& s) {
    const auto first = s.find_first_not_of(" \t"), last = s.find_last_not_of(" \t");
    return first == std::string::npos ? "" : s.substr(first, last - first + 1);
}

// The bounds to check: the file's deadlines, with --bound replacing an operation's deadline;
// with --only-bounds, the --bound values alone. Every --bound is checked (name, time >= 0,
// given once) before anything runs.
std::map<int, Time> bounds_to_check(const Workload& w, const std::vector<std::string>& given, bool only_given) {
    std::map<int, Time> from_options;
    for (const std::string& g : given) {
        // The last '=': a time never contains one, so a name may.
        const auto eq = g.rfind('=');
        if (eq == std::string::npos) throw option_error("--bound", "expected NAME=VALUE, got '" + g + "'");
        const std::string name = trimmed(g.substr(0, eq)), value = g.substr(eq + 1);
        if (name.empty()) throw option_error("--bound", "expected NAME=VALUE, the name is empty in '" + g + "'");
        const auto op = w.find_op(name);
        if (!op) throw option_error("--bound", "unknown operation '" + name + "' (in '" + g + "')");
        if (huge_exponent(value))
            throw option_error("--bound",
                               "'" + trimmed(value) + "' has an exponent of more than 4 digits (in '" + g + "')");
        const auto t = parse_time(value);
        if (!t || *t < 0) throw option_error("--bound", "'" + trimmed(value) + "' is not a time >= 0 (in '" + g + "')");
        if (auto seen = from_options.find(*op); seen != from_options.end())
            throw option_error("--bound", "operation '" + name + "' is given twice (" + human_string(seen->second) +
                                              " and " + human_string(*t) + ")");
        from_options[*op] = *t;
    }
    if (only_given && from_options.empty())
        throw option_error("--only-bounds", "needs at least one --bound NAME=VALUE");
    std::map<int, Time> out;
    if (!only_given)
        for (std::size_t i = 0; i < w.ops.size(); ++i)
            if (w.ops[i].deadline) out[static_cast<int>(i)] = *w.ops[i].deadline;
    for (const auto& [op, t] : from_options) out[op] = t;
    if (out.empty())
        throw InputError({w.source, 1, 1}, "nothing to certify: no operation has a deadline; give --bound NAME=VALUE");
    return out;
}

// One row per checked bound (the file's deadline stays beside it: the bound may be a --bound).
Json verdict_rows_json(const Workload& w, const std::vector<CertifyAnswer>& answers) {
    Json list = Json::array();
    for (const auto& a : answers) list.push_back(verdict_row_json(w, a));
    return list;
}

std::vector<Assumption> certify_assumptions(const CertifyOptions& o, const Workload& w, const EngineRun& run) {
    std::vector<Assumption> out = answer_assumptions(w, o, run.arguments);
    add_bound_assumptions(out, o.bounds, o.only_bounds);
    return out;
}

Json certify_body(const CertifyOptions& o, const Workload& w, const Json& list, const EngineRun& run) {
    return {{"engine", o.engine},
            {"policy", o.policy},
            {"operations", list},
            {"stats", stats_json(run)},
            {"assumptions", assumptions_json(certify_assumptions(o, w, run))}};
}

void print_certify_text(const CertifyOptions& o, const Workload& w, const std::vector<CertifyAnswer>& answers,
                        const EngineRun& run) {
    std::cout << "engine: " << o.engine << ", SM placement: " << o.policy << "\n";
    if (const auto unit = time_unit_name(w.time_unit)) std::cout << "times in " << *unit << '\n';
    // The file's deadlines beside the bounds checked (--bound may replace them), as wcrt shows them.
    bool deadlines = false;
    for (const auto& a : answers) deadlines = deadlines || w.ops[a.op].deadline;
    std::vector<std::string> header{"operation", "bound", "verdict", "margin", "violating response"};
    if (deadlines) header.insert(header.begin() + 4, {"deadline", "met"});
    TextTable t(header);
    for (const auto& a : answers) {
        TextWithTimes verdict(to_string(a.verdict));
        if (a.verdict == Verdict::unknown) verdict += " (" + a.unknown_reason + ")";
        if (a.busy_time_bound) (verdict += " (busy-time bound ").add(*a.busy_time_bound, Rounding::up) += ")";
        else if (a.verdict != Verdict::refuted && a.upper && a.upper_by != Provenance::busy_time)
            (verdict += " (upper bound ").add(*a.upper, Rounding::up) += " by " + provenance_text(a.upper_by) + ")";
        else if (a.verdict == Verdict::unknown && a.upper)
            (verdict += " (upper bound ").add(*a.upper, Rounding::up) += ")";
        // An unknown verdict: the bound lies between a replayed response and the proven bound.
        if (a.verdict == Verdict::unknown && a.lower)
            (verdict += " (lower bound ").add(*a.lower, Rounding::down) +=
                (a.lower_by == Provenance::none ? "" : " by " + provenance_text(a.lower_by)) + ")";
        std::vector<TableCell> row{w.ops[a.op].name, a.bound, verdict, certified_margin_text(a),
                                   TableCell::lower(a.response)};
        if (deadlines) row.insert(row.begin() + 4, {w.ops[a.op].deadline, met_text(w, a)});
        t.add(row);
    }
    t.print(std::cout);
    print_assumptions(std::cout, certify_assumptions(o, w, run));
    for (const auto& a : answers)
        if (a.counterexample)
            std::cout << "counterexample for " << w.ops[a.op].name << " (response " << human_string(*a.response)
                      << " > " << human_string(a.bound)
                      << ", replayed by the simulator): " << witness_summary(w, *a.counterexample, o.wide) << "\n";
}

// A refutation is final; an interrupted run that refuted nothing did not finish: exit 2.
int exit_code(const std::vector<CertifyAnswer>& answers, const Budget& run) {
    bool unknown = run.expired() && run.expiry_reason() == StopReason::interrupted;
    for (const auto& a : answers) {
        if (a.verdict == Verdict::refuted) return exit_refuted;
        unknown = unknown || a.verdict == Verdict::unknown;
    }
    return unknown ? exit_unknown : exit_ok;
}

int run_certify(const CertifyOptions& o) {
    catch_interrupts();
    check_output_paths({{"--counterexample", o.counterexample}, {"--svg", o.svg}}, {o.file});
    (void)svg_window(o);  // a bad --svg-window is an input error before any work
    const EngineOptions eo = engine_options(o);
    const Workload w = load_workload_file(o.file);
    if (!w.cpu.empty()) return certify_requirements(o, w, !o.bounds.empty() || o.only_bounds);
    const Engine& engine = engine_for(o.engine, w);
    require_engine_scope(engine, w, "gpuwcrt certify");
    if (!engine.ranges_over_frames()) check_block_outputs(w, o.svg);  // over frames: the frames' chart
    const std::map<int, Time> bounds = bounds_to_check(w, o.bounds, o.only_bounds);
    const Budget budget = whole_run_budget(o, w, engine), engines = engines_budget(budget, w.ops.size());
    Progress progress("certify");
    progress.watch(budget);
    const CertifyRun certified = certify_bounds(engine, EngineRequest{w, {}, eo, {}, progress.sink()}, bounds, engines);
    std::vector<CertifyAnswer> answers = certified.verdicts;
    for (CertifyAnswer& a : answers) a.unknown_reason = stop_reason_text(a.unknown_reason, engines);
    if (const std::string note = stop_note(engines); !note.empty()) std::cerr << "gpuwcrt certify: " << note << "\n";
    const EngineRun& run = certified.run;
    if (run.frames) {
        AllTimeOutput out{"certify", o, {}, answers, o.counterexample, certify_assumptions(o, w, run)};
        for (const CertifyAnswer& a : answers) out.ops.push_back(a.op);
        print_all_time(out, w, run);
        return exit_code(answers, budget);
    }

    const CertifyAnswer* first_cex = nullptr;
    for (const auto& a : answers)
        if (a.verdict == Verdict::refuted && !first_cex) first_cex = &a;
    if (first_cex) {
        const std::string why = "Counterexample: '" + w.ops[first_cex->op].name + "' responds in " +
                                human_string(*first_cex->response) + " > bound " + human_string(first_cex->bound) +
                                " (gpuwcrt certify " + o.file + ")";
        if (!o.counterexample.empty())
            write_output_file(o.counterexample, witness_toml(w, *first_cex->counterexample, why),
                              "workload TOML of " + w.ops[first_cex->op].name + "'s counterexample");
    } else if (!o.counterexample.empty()) {
        std::cerr << "gpuwcrt certify: no deadline refuted: no counterexample, nothing written to " << o.counterexample
                  << "\n";
    }
    if (!o.svg.empty()) {
        const int op = *chart_operation(margin_rows(answers), std::nullopt);
        for (const CertifyAnswer& a : answers)
            if (a.op == op) write_answer_chart(o, w, a);
    }
    if (o.json || o.csv) {
        const Json list = verdict_rows_json(w, answers);
        if (o.csv) std::cout << csv_from_json(list, verdict_csv_columns(), bound_csv_times);
        else {
            OutputContext context = verify_context("certify", o, w);
            context.options["bound"] = o.bounds;
            context.options["only_bounds"] = o.only_bounds;
            std::cout << with_context(context, certify_body(o, w, list, run)).dump(2) << '\n';
        }
        return exit_code(answers, budget);
    }
    print_certify_text(o, w, answers, run);
    if (first_cex && !o.counterexample.empty())
        std::cout << "wrote " << o.counterexample << " (gpuwcrt simulate " << o.counterexample
                  << " reproduces the first counterexample)\n";
    return exit_code(answers, budget);
}

}  // namespace

void add_certify_command(CLI::App& cli, Action& action) {
    auto o = std::make_shared<CertifyOptions>();
    CLI::App* sub = cli.add_subcommand(
        "certify",
        "Check each operation's deadline over ALL scenarios: 'certified' (a proven upper bound on\n"
        "its response is within the deadline: no scenario exceeds it), 'refuted' (a counterexample\n"
        "scenario, replayed by the simulator), or 'unknown' (timeout, or the deadline lies between\n"
        "the proven bounds; never reported as certified). The text says which engine proved the\n"
        "bound; a bound at or above the busy-time bound of docs/theory/encoding.md (\"Horizon\") is\n"
        "certified by that argument. The default engine, auto, stops on each operation once its\n"
        "verdict is known (docs/theory/verification-engines.md), so its margin (bound - proven bound) is\n"
        "'≥ X': the WCRT may be lower; an engine named by --engine runs as under wcrt and reports\n"
        "the bound it proves (the margin is exact where it knows the WCRT). Exit 0 all certified,\n"
        "1 some refuted, 2 none refuted but some unknown, 3 input error, 4 internal error. With\n"
        "periodic streams the bound must hold for every frame, for all time (docs/theory/all-time.md).");
    add_verify_options(sub, *o);
    add_svg_window_option(sub, o->svg_window);
    sub->add_option("--bound", o->bounds,
                    "NAME=VALUE (repeatable, once per operation): check VALUE (a time >= 0) for NAME\n"
                    "instead of NAME's deadline in the file; the other operations' file deadlines are\n"
                    "still checked unless --only-bounds is given");
    sub->add_flag("--only-bounds", o->only_bounds,
                  "check only the operations named by --bound; every deadline in the file is ignored");
    sub->add_option("--counterexample", o->counterexample,
                    "write the counterexample of the first refuted operation (in file order) as a TOML\n"
                    "file whose [scenario] fixes the launch order and SM placement, so that\n"
                    "'gpuwcrt simulate' reproduces it; with periodic streams, the unrolled frames (NAME#k)");
    sub->callback([o, &action] { action = [o] { return run_certify(*o); }; });
}

}  // namespace gpuwcrt::app
