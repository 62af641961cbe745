// gpuwcrt rta-check: is the thesis RTA, maximised over launch orders, a safe bound on the TX2's
// WCRT for this workload? Each kernel's RTA maximum is certified or refuted with the WCRT
// engines.
#include <iostream>
#include <memory>
#include <optional>

#include "app/cli_options.hpp"
#include "app/engine_run.hpp"
#include "app/commands.hpp"
#include "app/exit_codes.hpp"
#include "app/output_file.hpp"
#include "app/verification.hpp"
#include "bounds/answer.hpp"
#include "bounds/engine_stats.hpp"
#include "bounds/rta/rta_scope.hpp"
#include "model/time_unit.hpp"
#include "report/compact/compact_list.hpp"
#include "report/csv/csv_rows.hpp"
#include "report/text_table.hpp"
#include "sim/simulate.hpp"
#include "solver/rta/fixed_times.hpp"
#include "solver/rta/max_over_orders.hpp"
#include "solver/engine.hpp"
#include "solver/registry.hpp"

namespace gpuwcrt::app {
namespace {

struct RtaCheckOptions : VerifyOptions {
    std::string counterexample;
    std::optional<std::string> rta_timeout;
};

// The one place that asks the WCRT engines whether no scenario gives `op` more than `bound`
// (--engine, default auto: solver/registry.hpp).
class BoundChecker {
public:
    BoundChecker(const Workload& w, const RtaCheckOptions& o, const Budget& budget, EngineStats& stats,
                 Progress& progress)
        : w_(w), o_(o), engine_(engine_named(o.engine)), budget_(budget), stats_(stats), progress_(progress) {
        // --engine smt asks its own question per kernel (and refuses here, before any work).
        question_ = engine_.bound_question(w, engine_options(o), {});
    }
    std::string engine() const { return o_.engine; }

    // --engine smt asks one question per kernel; every other engine (auto by default) computes
    // the WCRT bounds of every kernel once, and the verdicts follow from them.
    CertifyAnswer check(int op, const Time& bound) {
        if (question_) return question_(op, bound, budget_, stats_);
        if (!run_) {
            std::vector<int> kernels;
            for (std::size_t i = 0; i < w_.ops.size(); ++i)
                if (w_.ops[i].is_kernel()) kernels.push_back(static_cast<int>(i));
            run_ = engine_.run(EngineRequest{w_, kernels, engine_options(o_), {}, progress_.sink()}, budget_);
            require_policy_witnesses(w_, engine_options(o_).policy, *run_);
            stats_.scenarios += run_->stats.scenarios;
            stats_.solver_calls += run_->stats.solver_calls;
        }
        return verdict_from(w_, run_->answers[op], bound);
    }

private:
    const Workload& w_;
    const RtaCheckOptions& o_;
    const Engine& engine_;
    const Budget& budget_;
    EngineStats& stats_;
    Progress& progress_;
    Engine::BoundQuestion question_;
    std::optional<EngineRun> run_;
};

struct KernelVerdict {
    int op = 0;
    BoundedAnswer<Time, LaunchOrder> rta_max;  // the RTA max over orders
    std::string verdict;                       // "safe", "unsafe", "unknown"
    std::optional<Time> excess;                // unsafe: TX2 response − RTA max (at least, when undecided)
    CertifyAnswer answer;
};

int exit_code(const std::vector<KernelVerdict>& vs) {
    bool unknown = false;
    for (const auto& v : vs) {
        if (v.verdict == "unsafe") return exit_refuted;
        unknown = unknown || v.verdict == "unknown";
    }
    return unknown ? exit_unknown : exit_ok;
}

// One kernel's verdict: its RTA maximum over orders against the WCRT engines' answer.
KernelVerdict kernel_verdict(const Workload& w, const RtaMaxOverOrders& rta, std::size_t i, BoundChecker& checker,
                             Progress& progress) {
    KernelVerdict v;
    v.op = static_cast<int>(i);
    v.rta_max = rta.answers[i];
    // Undecided RTA maximum: certify the best order found (below the maximum: "safe" stays
    // sound), and call a refutation unsafe only above the proven bound on the maximum.
    const std::optional<Time> bound = v.rta_max.lower;
    if (!bound) {
        v.verdict = "unknown";
        v.answer.unknown_reason = "RTA max over orders undecided";
        return v;
    }
    v.answer = checker.check(v.op, *bound);
    progress.say(w.ops[i].name + ": " + to_string(v.answer.verdict));
    const Time rta_value = v.rta_max.upper ? *v.rta_max.upper : *bound;
    if (v.answer.verdict == Verdict::certified) v.verdict = "safe";
    else if (v.answer.verdict == Verdict::refuted && *v.answer.response > rta_value) {
        v.verdict = "unsafe";
        v.excess = *v.answer.response - rta_value;
    } else {
        v.verdict = "unknown";
        if (v.answer.unknown_reason.empty()) v.answer.unknown_reason = "RTA max over orders undecided";
    }
    return v;
}

// --counterexample and --svg for the first unsafe kernel in file order.
void write_first_counterexample(const Workload& w, const RtaCheckOptions& o, const KernelVerdict& first) {
    const std::string why = "Counterexample: '" + w.ops[first.op].name + "' responds in " +
                            human_string(*first.answer.response) + " on the TX2, more than the RTA's " +
                            human_string(*first.answer.response - *first.excess) +
                            " maximised over launch orders (gpuwcrt rta-check " + o.file + ")";
    if (!o.counterexample.empty())
        write_output_file(o.counterexample, witness_toml(w, *first.answer.counterexample, why),
                          "workload TOML of " + w.ops[first.op].name + "'s counterexample");
    if (!o.svg.empty())  // the bound refuted is the RTA's value
        write_gantt_svg(
            o.svg, w, simulate(w, witness_scenario(w, *first.answer.counterexample)),
            counterexample_chart(w, first.op, *first.answer.response, *first.answer.response - *first.excess));
}

// The kernel's deadline against what the WCRT engines proved: the certified bound (or their
// upper bound) from above, a replayed response from below.
std::optional<bool> met_of(const Workload& w, const KernelVerdict& v) {
    const CertifyAnswer& a = v.answer;
    std::optional<Time> upper = a.upper;
    if (!upper && a.verdict == Verdict::certified) upper = a.bound;
    return deadline_met(w.ops[v.op].deadline, a.lower ? a.lower : a.response, upper);
}

const std::vector<std::string> rta_check_csv_columns{
    "operation", "kind",         "stream",   "rta_max_over_orders", "rta_max_upper_bound", "verdict",
    "excess",    "tx2_response", "deadline", "deadline_met",        "unknown_reason"};

Json rta_check_verdicts_json(const Workload& w, const std::vector<KernelVerdict>& verdicts) {
    Json list = Json::array();
    for (const auto& v : verdicts) {
        const Operation& op = w.ops[v.op];
        Json j = {{"name", op.name},
                  {"kind", "kernel"},
                  {"stream", w.streams[op.stream].name},
                  {"rta_max_over_orders", time_or_null(v.rta_max.exact())},
                  {"verdict", v.verdict}};
        if (!v.rta_max.exact()) j["rta_max_upper_bound"] = time_or_null(v.rta_max.upper);
        if (v.excess) {
            j["excess"] = exact_string(*v.excess);
            j["tx2_response"] = exact_string(*v.answer.response);
            j["counterexample"] = witness_json(w, *v.answer.counterexample);
        }
        if (v.verdict == "unknown") j["unknown_reason"] = v.answer.unknown_reason;
        add_deadline(j, op.deadline, met_of(w, v));
        list.push_back(std::move(j));
    }
    return list;
}

void print_json(const Workload& w, const RtaCheckOptions& o, const std::string& engine,
                const std::vector<KernelVerdict>& verdicts, const std::vector<std::string>& reasons) {
    const Json list = rta_check_verdicts_json(w, verdicts);
    if (o.csv) {
        std::cout << csv_from_json(list, rta_check_csv_columns, bound_csv_times);
        return;
    }
    OutputContext context = verify_context("rta-check", o, w);
    context.options["rta_timeout"] = o.rta_timeout ? Json(*o.rta_timeout) : Json(nullptr);
    const Json body = {{"engine", engine},
                       {"policy", o.policy},
                       {"kernels", list},
                       {"rta_scope", rta_scope_name(reasons.empty())},
                       {"rta_scope_reasons", reasons}};
    std::cout << with_context(context, body).dump(2) << '\n';
}

void print_text(const Workload& w, const RtaCheckOptions& o, const std::string& engine,
                const std::vector<KernelVerdict>& verdicts, const std::vector<std::string>& reasons, bool wrote_first) {
    std::cout << "engine: " << engine << ", SM placement: " << o.policy << "\n";
    if (const auto unit = time_unit_name(w.time_unit)) std::cout << "times in " << *unit << '\n';
    TextTable t({"kernel", "rta(max over orders)", "verdict", "TX2 response"});
    for (const auto& v : verdicts) {
        TextWithTimes verdict(v.verdict);
        if (v.excess) (verdict += " by ").add(*v.excess, Rounding::down);
        if (v.verdict == "unknown") verdict += " (" + v.answer.unknown_reason + ")";
        const auto& m = v.rta_max;
        TextWithTimes rta_text;
        if (m.exact()) rta_text.add(*m.exact(), Rounding::up);
        else if (m.upper) (rta_text += "<= ").add(*m.upper, Rounding::up);
        else rta_text += "-";
        t.add({w.ops[v.op].name, rta_text, verdict, TableCell::lower(v.answer.response)});
    }
    t.print(std::cout);
    std::cout << "RTA scope: " << (reasons.empty() ? "exact\n" : "approximation (outside the thesis' assumptions):\n");
    for (const auto& r : reasons) std::cout << bullet_item(r);
    for (const auto& v : verdicts)
        if (v.excess)
            std::cout << "counterexample for " << w.ops[v.op].name << " (TX2 response "
                      << human_string(*v.answer.response)
                      << ", replayed by the simulator): " << witness_summary(w, *v.answer.counterexample, o.wide)
                      << "\n";
    if (wrote_first && !o.counterexample.empty())
        std::cout << "wrote " << o.counterexample << " (gpuwcrt simulate " << o.counterexample
                  << " reproduces the first counterexample)\n";
}

int run_rta_check(const RtaCheckOptions& o) {
    check_output_paths({{"--counterexample", o.counterexample}, {"--svg", o.svg}}, {o.file});
    (void)engine_options(o);  // a bad --timeout is an input error before any work
    const std::chrono::milliseconds rta_cap = rta_timeout(o.rta_timeout);
    const Workload w = load_workload_file(o.file);
    check_block_outputs(w, o.svg);
    require_engine_scope(engine_named(o.engine), w, "gpuwcrt rta-check");
    require_fixed_times(w);
    const Budget budget = run_budget(o);
    Progress progress("rta-check");
    progress.watch(budget);
    // The RTA side first: --rta-timeout, and a quarter of --timeout at most (the WCRT engines
    // need the rest).
    const RtaMaxOverOrders rta = rta_max_over_orders(w, budget.slice(1, 4).capped(rta_cap));
    progress.say("RTA maximised over launch orders");
    EngineStats stats;
    BoundChecker checker(w, o, budget, stats, progress);
    std::vector<KernelVerdict> verdicts;
    for (std::size_t i = 0; i < w.ops.size(); ++i)
        if (w.ops[i].is_kernel()) verdicts.push_back(kernel_verdict(w, rta, i, checker, progress));
    const KernelVerdict* first = nullptr;
    for (const auto& v : verdicts)
        if (v.verdict == "unsafe" && !first) first = &v;
    if (first) write_first_counterexample(w, o, *first);
    const std::vector<std::string> reasons = rta_scope_reasons(w);
    if (!first && (!o.svg.empty() || !o.counterexample.empty()))
        std::cerr << "gpuwcrt rta-check: no kernel unsafe: no counterexample, nothing written to "
                  << (o.svg.empty()              ? o.counterexample
                      : o.counterexample.empty() ? o.svg
                                                 : o.counterexample + " or " + o.svg)
                  << "\n";
    if (o.json || o.csv) print_json(w, o, checker.engine(), verdicts, reasons);
    else print_text(w, o, checker.engine(), verdicts, reasons, first != nullptr);
    return exit_code(verdicts);
}

}  // namespace

void add_rta_check_command(CLI::App& cli, Action& action) {
    auto o = std::make_shared<RtaCheckOptions>();
    CLI::App* sub = cli.add_subcommand(
        "rta-check",
        "Is the thesis RTA a safe bound on the TX2 for this workload? For each kernel, the RTA\n"
        "maximised over every launch order is checked against ALL scenarios of the TX2 rules:\n"
        "'safe' (certified: no scenario responds later), 'unsafe by X' (a scenario, replayed by\n"
        "the simulator, responds X later), or 'unknown' (timeout; never reported as safe).\n"
        "Exit 0 all safe, 1 some unsafe, 2 none unsafe but some unknown, 3 input error, 4 internal\n"
        "error. Block-time intervals and issue windows are refused (exit 3): the RTA takes fixed block\n"
        "times and issue instants.");
    add_verify_options(sub, *o);
    add_rta_timeout_option(sub, o->rta_timeout);
    sub->add_option("--counterexample", o->counterexample,
                    "write the scenario of the first unsafe kernel (in file order) as a TOML file whose\n"
                    "[scenario] fixes the launch order and SM placement ('gpuwcrt simulate' reproduces it)");
    sub->callback([o, &action] { action = [o] { return run_rta_check(*o); }; });
}

}  // namespace gpuwcrt::app
