// `gpuwcrt warp` and `gpuwcrt warp-sweep`: Raravi & Andersson's finishing-time conjecture (docs/theory/semantics.md
// §8) checked by exact worst/best-case makespans over all fair, work-conserving warp interleavings.
#include <atomic>
#include <csignal>
#include <iostream>
#include <memory>

#include "app/cli_options.hpp"
#include "app/commands.hpp"
#include "app/distributed/process_share.hpp"
#include "app/warp/sweep_rows.hpp"
#include "app/exit_codes.hpp"
#include "app/phase_progress.hpp"
#include "app/warp/warp_options.hpp"
#include "model/io/warp/warp_toml.hpp"
#include "model/warp/warp_tr.hpp"
#include "model/source_location.hpp"
#include "report/context/output_context.hpp"
#include "report/provenance.hpp"
#include "report/text_table.hpp"
#include "report/warp/warp_schedule_text.hpp"
#include "solver/registry.hpp"
#include "solver/warp/warp_check.hpp"

namespace gpuwcrt::app {
namespace {

// Every value is kept as text and parsed by app/warp/warp_options (one error format, no CLI11
// conversion messages); an option's count() says whether the user gave it.
struct WarpModelOptions {
    std::string program_file, fairness, engine, warp_size = "16", cuda = "2", ldst = "1", issue_limit;
    std::vector<std::string> latency;
    std::string timeout = "60";
    std::vector<CLI::Option*> machine_flags;  // the TR machine's flags: meaningless with --program
    CLI::Option* issue_limit_flag = nullptr;
};

struct WarpOptions : WarpModelOptions {
    std::string threads, warps, rep;
    bool json = false, schedule = false;
};

struct SweepOptions : WarpModelOptions {
    std::string threads = "16:256:16", rep = "1:8";
    bool csv = false, fail_on_refuted = false;
};

const std::string limits_text =
    "Limits (checked before any engine runs): warp size <= 1024, W <= 4096 warps, rep <= 10000, capacities\n"
    "and issue limit <= 4096, latencies <= 1024 cycles, program <= 10000 instructions, W x (cycles of one\n"
    "warp's program at full latency) <= 10^9, a sweep <= 10000 points.";

// Machine, program and default rep/fairness, from --program or the TR flags.
WarpSpec model_from(const WarpModelOptions& o) {
    WarpSpec spec;
    if (!o.program_file.empty()) {
        for (const CLI::Option* f : o.machine_flags)
            if (f->count() > 0)
                throw option_error(f->get_name(), "cannot be combined with --program (the file defines the machine)");
        spec = load_warp_spec_file(o.program_file);
    } else {
        FermiUnits u;
        u.warp_size = static_cast<int>(positive_integer("--warp-size", o.warp_size, warp_limits::warp_size));
        u.cuda = static_cast<int>(positive_integer("--cuda", o.cuda, warp_limits::capacity));
        u.ldst = static_cast<int>(positive_integer("--ldst", o.ldst, warp_limits::capacity));
        // No --issue-limit means no limit: a value is always a real limit.
        if (o.issue_limit_flag->count() > 0)
            u.issue_limit = static_cast<int>(positive_integer("--issue-limit", o.issue_limit, warp_limits::capacity));
        std::string seen;
        for (const auto& l : o.latency) {
            const auto eq = l.find('=');
            int* target = eq != 1       ? nullptr
                          : l[0] == 'C' ? &u.latency_c
                          : l[0] == 'L' ? &u.latency_l
                          : l[0] == 'S' ? &u.latency_s
                                        : nullptr;
            if (!target) throw option_error("--latency", "must be CLASS=CYCLES with CLASS C, L or S, got '" + l + "'");
            if (seen.find(l[0]) != std::string::npos)
                throw option_error("--latency", std::string(1, l[0]) + " given twice");
            seen += l[0];
            *target = static_cast<int>(positive_integer("--latency", l.substr(2), warp_limits::latency, "cycles"));
        }
        spec.machine = fermi_machine(u);
        spec.program = tr_program(spec.machine);
    }
    if (!o.fairness.empty()) {
        spec.fairness = parse_warp_fairness(o.fairness);
        if (!spec.fairness)
            throw option_error("--fairness", "must be subblock, strict or none, got '" + o.fairness + "'");
    }
    return spec;
}

// The program's length and W x its cycles, for the largest rep and W a command will run.
void check_size(const WarpSpec& spec, const char* warps_option, long long warps, const char* rep_option,
                long long rep) {
    if (!warp_program_length(spec.program, rep))
        throw option_error(rep_option, "makes the program longer than " + std::to_string(warp_limits::program_length) +
                                           " instructions (prologue + rep x body + epilogue), got " +
                                           std::to_string(rep));
    const long long cycles = warp_program_cycles(spec.machine, spec.program, rep);
    if (warps > warp_limits::cycles / cycles)
        throw option_error(warps_option, std::to_string(warps) + " warps x " + std::to_string(cycles) +
                                             " cycles of program each exceed the limit of 10^9 cycles");
}

WarpEngines engines_from(const std::string& text) {
    if (const WarpEngines* e = warp_engines_named(text)) return *e;
    const std::vector<std::string> names = warp_engine_names();
    std::string list;
    for (std::size_t i = 0; i < names.size(); ++i)
        list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    throw option_error("--engine", "must be " + list + ", got '" + text + "'");
}

WarpProblem problem_for(const WarpSpec& spec, int warps, int rep) {
    WarpProblem p;
    p.machine = spec.machine;
    p.program = spec.program;
    p.warps = warps;
    p.rep = rep;
    p.fairness = spec.fairness.value_or(WarpFairness::subblock);
    return p;
}

// One point within its own deadline; the SMT cross-check of `auto` after the explicit answer.
class PointRunner {
public:
    PointRunner(const char* command, const WarpEngines& engines, std::chrono::milliseconds timeout)
        : engines_(engines), timeout_(timeout), progress_(command, counters_status(budget_)) {}

    void context(std::string text) { progress_.set_phase(std::move(text)); }
    void end_after_this_point() { budget_.leave_table_on_timeout = true; }

    WarpCheck explicit_part(const WarpProblem& p, long long threads) {
        budget_.deadline = Budget::Clock::now() + timeout_;
        budget_.counters().states = 0;
        budget_.counters().checks = 0;
        return check_warp(p, threads, engines_, budget_);
    }
    void cross_check(WarpCheck& c) {
        if (engines_.smt_cross_check) smt_cross_check(c, CrossCheckOptions{}, budget_);
    }

private:
    WarpEngines engines_;
    std::chrono::milliseconds timeout_;
    Budget budget_;
    Progress progress_;
};

std::string opt_int(const std::optional<long long>& v) { return v ? std::to_string(*v) : "unknown"; }
std::string opt_ll(const std::optional<long long>& v) { return v ? std::to_string(*v) : "-"; }
Json opt_json(const std::optional<long long>& v) { return v ? Json(*v) : Json(nullptr); }

// The schedule an answer keeps, or none (no rows).
const WarpSchedule& schedule_of(const WarpAnswer& a) {
    static const WarpSchedule none;
    return a.witness ? *a.witness : none;
}

int exit_code_of(const WarpCheck& c) {
    if (c.engines_disagree) return exit_internal_error;
    switch (c.outcome) {
        case WarpOutcome::refuted:
            return exit_refuted;
        case WarpOutcome::unknown:
            return exit_unknown;
        default:
            return exit_ok;
    }
}

void print_engines(std::ostream& out, const WarpCheck& c) {
    for (const auto& r : c.runs) {
        // A goal the engine was not asked about (auto: the bounds settled it) shows as "-".
        const auto shown = [&](const std::optional<long long>& v) {
            return v                                                            ? std::to_string(*v)
                   : r.engine != Provenance::bounds && r.unknown_reason.empty() ? "-"
                                                                                : "unknown";
        };
        out << "  " << provenance_text(r.engine) << ": worst " << shown(r.worst.exact()) << ", best "
            << shown(r.best.exact()) << ", ";
        if (r.engine == Provenance::explicit_state) out << r.states << " states, ";
        else if (r.engine == Provenance::smt) out << r.checks << " solver checks, ";
        out << r.milliseconds << " ms";
        if (r.engine == Provenance::bounds) {
            out << " (" << (r.worst.lower ? std::to_string(*r.worst.lower) + " <= " : "")
                << "worst <= " << opt_ll(r.worst.upper) << ", " << opt_ll(r.best.lower) << " <= best"
                << (r.best.upper ? " <= " + std::to_string(*r.best.upper) : "")
                << (r.unknown_reason.empty() || r.unknown_reason == "bounds apart" ? ""
                                                                                   : "; stopped: " + r.unknown_reason)
                << ")\n    " << r.detail << '\n';
            continue;
        }
        if (!r.unknown_reason.empty()) {
            out << " (unknown: " << r.unknown_reason;
            if (!r.worst.exact() && r.worst.lower) out << "; worst >= " << *r.worst.lower;
            if (!r.best.exact() && r.best.upper) out << "; best <= " << *r.best.upper;
            out << ")";
        }
        out << '\n';
    }
}

Json check_json(const WarpCheck& c) {
    Json j;
    j["threads"] = c.threads;
    j["warps"] = c.problem.warps;
    j["rep"] = c.problem.rep;
    j["fairness"] = to_string(c.problem.fairness);
    j["ft"] = c.ft ? Json(*c.ft) : Json(nullptr);
    j["worst"] = opt_json(c.worst.exact());
    j["best"] = opt_json(c.best.exact());
    j["verdict"] = c.verdict;
    j["worst_lower"] = opt_json(c.worst.lower);
    j["worst_upper"] = opt_json(c.worst.upper);
    j["schedule"] = warp_schedule_json(schedule_of(c.worst));
    Json engines = Json::array();
    for (const auto& r : c.runs) {
        // A search proves a bound only by deciding the goal; the bounds engine's closed forms
        // are bounds of their own, exact or not: those are worst_upper and best_lower.
        const bool closed_forms = r.engine == Provenance::bounds;
        engines.push_back({{"engine", provenance_text(r.engine)},
                           {"worst", opt_json(r.worst.exact())},
                           {"best", opt_json(r.best.exact())},
                           {"worst_bound", opt_json(r.worst.lower)},
                           {"best_bound", opt_json(r.best.upper)},
                           {"worst_upper", closed_forms ? opt_json(r.worst.upper) : Json(nullptr)},
                           {"best_lower", closed_forms ? opt_json(r.best.lower) : Json(nullptr)},
                           {"milliseconds", r.milliseconds},
                           {"unknown", r.unknown_reason}});
    }
    j["engines"] = engines;
    j["engines_agree"] = !c.engines_disagree;
    j["smt_cross_check"] = c.cross_check.empty() ? Json(nullptr) : Json(c.cross_check);
    return j;
}

// The interleavings only on --schedule: at W = 64 one takes hundreds of kilobytes. Every engine
// that found a schedule shows it, also the bounds engine's longest one that refutes FT without
// an exact worst case.
void print_schedules(const WarpOptions& o, const WarpCheck& c, int ws, long long threads) {
    const WarpSchedule &worst_schedule = schedule_of(c.worst), &best_schedule = schedule_of(c.best);
    const bool worst = !worst_schedule.rows.empty(), best = !best_schedule.rows.empty();
    if (!o.schedule) {
        if (c.outcome == WarpOutcome::refuted && worst)
            std::cout << "(--schedule prints the worst-case interleaving that refutes FT)\n";
        return;
    }
    if (worst) {
        std::cout << "\nworst-case interleaving (makespan " << worst_schedule.makespan()
                  << (c.worst.exact() ? "" : ", a lower bound on the worst case") << "):\n";
        print_warp_schedule(std::cout, worst_schedule, ws, threads);
    }
    if (best) {
        std::cout << "\nbest-case interleaving (makespan " << best_schedule.makespan()
                  << (c.best.exact() ? "" : ", an upper bound on the best case") << "):\n";
        print_warp_schedule(std::cout, best_schedule, ws, threads);
    }
    if (!worst && !best) std::cout << "(no interleaving found within --timeout: no schedule to print)\n";
}

int run_warp(const WarpOptions& o, const CLI::Option* threads_opt, const CLI::Option* warps_opt,
             const CLI::Option* rep_opt) {
    const WarpSpec spec = model_from(o);
    const WarpEngines engines = engines_from(o.engine.empty() ? std::string(warp_engine_name::automatic) : o.engine);
    const std::chrono::milliseconds timeout = positive_seconds("--timeout", o.timeout);
    const int ws = spec.machine.warp_size;
    if ((threads_opt->count() > 0) == (warps_opt->count() > 0))
        throw option_error("--threads", threads_opt->count() ? "give --threads or --warps, not both"
                                                             : "required (or --warps): the number of threads n");
    long long threads = 0;
    int warps = 0;
    if (threads_opt->count()) {
        threads = positive_integer("--threads", o.threads, static_cast<long long>(warp_limits::warps) * ws,
                                   std::to_string(warp_limits::warps) + " warps of " + std::to_string(ws) + " threads");
        warps = warps_for_threads(threads, ws);
    } else {
        warps = static_cast<int>(positive_integer("--warps", o.warps, warp_limits::warps));
        threads = static_cast<long long>(warps) * ws;
    }
    const int rep =
        rep_opt->count() ? static_cast<int>(positive_integer("--rep", o.rep, warp_limits::rep)) : spec.rep.value_or(1);
    check_size(spec, threads_opt->count() ? "--threads" : "--warps", warps, rep_opt->count() ? "--rep" : "--program",
               rep);

    auto runner = std::make_unique<PointRunner>("warp", engines, timeout);
    runner->end_after_this_point();
    WarpCheck c = runner->explicit_part(problem_for(spec, warps, rep), threads);
    if (!o.json) {
        std::cout << "threads " << threads << " -> W = " << warps << " warps of " << ws << ", rep " << rep
                  << ", fairness " << to_string(c.problem.fairness) << '\n'
                  << "FT(n, rep)           " << opt_ll(c.ft) << '\n'
                  << "worst-case makespan  " << opt_int(c.worst.exact()) << '\n'
                  << "best-case makespan   " << opt_int(c.best.exact()) << '\n'
                  << "verdict              " << c.verdict << '\n';
        print_engines(std::cout, c);
        std::cout << std::flush;
    }
    runner->cross_check(c);
    runner.reset();  // no progress line after the result
    if (o.json) {
        OutputContext context{"warp", o.program_file, Json::object(), "cycles"};
        context.options = {{"threads", threads_opt->count() ? Json(o.threads) : Json(nullptr)},
                           {"warps", warps_opt->count() ? Json(o.warps) : Json(nullptr)},
                           {"rep", rep_opt->count() ? Json(o.rep) : Json(nullptr)},
                           {"fairness", o.fairness.empty() ? Json(nullptr) : Json(o.fairness)},
                           {"engine", o.engine.empty() ? Json(warp_engine_name::automatic) : Json(o.engine)},
                           {"timeout", o.timeout}};
        std::cout << with_context(context, check_json(c)).dump(2) << '\n';
        return exit_code_of(c);
    }
    if (!c.cross_check.empty()) std::cout << "smt cross-check      " << c.cross_check << '\n';
    else if (c.engines_disagree) std::cout << "  ENGINES DISAGREE: this is a bug, not a result\n";
    print_schedules(o, c, ws, threads);
    return exit_code_of(c);
}

SweepRow sweep_row(std::size_t index, const WarpCheck& c) {
    SweepRow r{index,
               {std::to_string(c.threads), std::to_string(c.problem.warps), std::to_string(c.problem.rep), opt_ll(c.ft),
                opt_int(c.worst.exact()), opt_int(c.best.exact()), c.verdict},
               c.engines_disagree,
               c.outcome == WarpOutcome::refuted,
               c.outcome == WarpOutcome::unknown};
    if (c.engines_disagree) r.cells.back() += " [ENGINES DISAGREE]";
    return r;
}

std::atomic<bool> interrupted{false};
extern "C" void on_sigint(int) { interrupted = true; }

// The sweep's table (or CSV) and exit code; `total`: the points asked for (fewer rows: interrupted).
int print_sweep(const SweepOptions& o, const std::vector<SweepRow>& rows, std::size_t total) {
    const std::vector<std::string> header{"threads", "warps", "rep", "FT", "worst", "best", "verdict"};
    TextTable table(header);
    if (o.csv) {
        for (std::size_t i = 0; i < header.size(); ++i) std::cout << (i ? "," : "") << header[i];
        std::cout << '\n';
    }
    bool disagree = false, refuted = false, unknown = false;
    for (const SweepRow& r : rows) {
        if (o.csv) {
            for (std::size_t i = 0; i < r.cells.size(); ++i)
                std::cout << (i ? "," : "") << (i + 1 == r.cells.size() ? "\"" + r.cells[i] + "\"" : r.cells[i]);
            std::cout << '\n';
        } else {
            table.add(r.cells);
        }
        disagree = disagree || r.disagree;
        refuted = refuted || r.refuted;
        unknown = unknown || r.unknown;
    }
    if (!o.csv) table.print(std::cout);
    if (interrupted) {
        std::cerr << "warp-sweep: interrupted after " << rows.size() << " of " << total << " points\n";
        return 130;
    }
    if (disagree) return exit_internal_error;
    if (o.fail_on_refuted && refuted) return exit_refuted;
    return unknown ? exit_unknown : exit_ok;
}

int run_sweep(const SweepOptions& o) {
    const WarpSpec spec = model_from(o);
    const WarpEngines engines =
        engines_from(o.engine.empty() ? std::string(warp_engine_name::explicit_state) : o.engine);
    const std::chrono::milliseconds timeout = positive_seconds("--timeout", o.timeout);
    const int ws = spec.machine.warp_size;
    const IntegerRange threads =
        positive_range("--threads", o.threads, true, static_cast<long long>(warp_limits::warps) * ws,
                       std::to_string(warp_limits::warps) + " warps of " + std::to_string(ws) + " threads");
    const IntegerRange reps = positive_range("--rep", o.rep, false, warp_limits::rep);
    if (threads.count() > 10000 / reps.count())
        throw option_error("--threads", "the sweep has " + std::to_string(threads.count()) + " x " +
                                            std::to_string(reps.count()) + " points, more than the limit of 10000");
    const long long last_n = threads.last_point();
    check_size(spec, "--threads", warps_for_threads(last_n, ws), "--rep", reps.span.hi);
    std::vector<std::pair<long long, int>> points;
    for (long long n = threads.span.lo; n <= last_n; n += threads.step)
        for (long long r = reps.span.lo; r <= reps.span.hi; ++r) points.emplace_back(n, static_cast<int>(r));

    interrupted = false;
    auto previous = std::signal(SIGINT, on_sigint);
    std::vector<SweepRow> rows;
    {
        // Under mpirun each process takes every share_count()-th point (app/distributed/).
        PointRunner runner("warp-sweep", engines, timeout);
        for (std::size_t i = static_cast<std::size_t>(share_rank()); i < points.size() && !interrupted;
             i += static_cast<std::size_t>(share_count())) {
            const auto [n, rep] = points[i];
            runner.context("point " + std::to_string(i + 1) + "/" + std::to_string(points.size()) + " (threads " +
                           std::to_string(n) + ", rep " + std::to_string(rep) + ")");
            WarpCheck c = runner.explicit_part(problem_for(spec, warps_for_threads(n, ws), rep), n);
            runner.cross_check(c);
            rows.push_back(sweep_row(i, c));
        }
    }
    std::signal(SIGINT, previous);
    if (share_count() > 1) {
        rows = gathered_rows(rows);
        if (share_rank() != 0) return exit_ok;  // rank 0 prints and decides the exit code
    }
    return print_sweep(o, rows, points.size());
}

void add_model_options(CLI::App* sub, WarpModelOptions& o) {
    sub->add_option("--program", o.program_file,
                    "warp machine and program TOML (cases/raravi2010/*.toml); default: the TR's Fermi SM\n"
                    "and program C (L L C)xrep S")
        ->type_name("FILE");
    sub->add_option(
           "--fairness", o.fairness,
           "subblock (default, docs/theory/semantics.md §8: epilogue at level rep), strict (epilogue at rep+1), none")
        ->type_name("FAIRNESS");
    o.machine_flags = {
        sub->add_option("--warp-size", o.warp_size, "threads per warp (TR: 16)")->type_name("N"),
        sub->add_option("--cuda", o.cuda, "CUDA warp-instructions per cycle (TR: 2)")->type_name("N"),
        sub->add_option("--ldst", o.ldst, "LOAD/STORE warp-instructions per cycle (TR: 1)")->type_name("N"),
        o.issue_limit_flag =
            sub->add_option("--issue-limit", o.issue_limit, "total warp-instructions per cycle (absent: no limit)")
                ->type_name("N"),
        sub->add_option("--latency", o.latency,
                        "e.g. L=4: cycles from issuing to the warp's next issue (each class once)")
            ->type_name("CLASS=CYCLES"),
    };
    sub->add_option("--timeout", o.timeout,
                    "seconds (e.g. 5 or 0.5) for each point, all engines together (default 60); a point\n"
                    "that runs out is 'unknown (timeout)' with the bounds found so far")
        ->type_name("SECONDS");
}

const char* engine_text =
    "auto (default for warp): the bounds engine, then the explicit engine for a goal (worst,\n"
    "best) whose bounds do not meet, then an SMT cross-check only on small problems (W x program\n"
    "length <= 64) within 2 s, reported on its own line ('agrees', 'skipped', 'no answer within\n"
    "its budget'); bounds: proven upper bound on the worst case (lower on the best, closed\n"
    "forms, docs/theory/warp/warp-conjecture.md) and the longest (shortest) schedule of a few priority\n"
    "rules, exact only when they meet, otherwise unknown with both bounds (W = 64, rep = 8\n"
    "without fairness: exact in milliseconds; the schedules take W x makespan steps, cut off\n"
    "by --timeout); explicit; smt; both (explicit and smt in full, cross-checked). A\n"
    "disagreement between engines exits 4.";

}  // namespace

void add_warp_command(CLI::App& cli, Action& action) {
    auto o = std::make_shared<WarpOptions>();
    CLI::App* sub = cli.add_subcommand(
        "warp",
        "Exact worst- and best-case makespan of W warps over all work-conserving, sub-block-fair\n"
        "interleavings (Raravi & Andersson, docs/theory/semantics.md §8), compared with the conjecture FT(n, rep).\n"
        "Exit 0 holds, 1 refuted, 2 unknown (timeout or memory limit), 3 input error, 4 engines\n"
        "disagree. Progress on stderr after the first second.\n" +
            limits_text);
    CLI::Option* threads =
        sub->add_option("--threads", o->threads, "number of threads n (W = ceil(n / warp size))")->type_name("N");
    CLI::Option* warps = sub->add_option("--warps", o->warps, "number of warps W instead of --threads")->type_name("W");
    CLI::Option* rep =
        sub->add_option("--rep", o->rep, "repetitions of the sub-block (default: the program file's, else 1)")
            ->type_name("REP");
    add_model_options(sub, *o);
    sub->add_option("--engine", o->engine, engine_text)->type_name("ENGINE");
    add_exact_option(sub);
    sub->add_flag("--json", o->json,
                  "print {tool, command, input, options, time_unit (\"cycles\"), threads, warps, rep,\n"
                  "fairness, ft, worst, best, verdict, worst_lower, worst_upper (proven bounds; both = worst\n"
                  "when exact), schedule, engines, smt_cross_check} (schema: docs/schema/warp.json)");
    sub->add_flag("--schedule", o->schedule,
                  "print the worst- and best-case interleavings that the engines found, for every engine\n"
                  "(default: off; they are W rows of makespan columns; --json always includes the worst)");
    sub->callback([o, threads, warps, rep, &action] {
        action = [o, threads, warps, rep] { return run_warp(*o, threads, warps, rep); };
    });
}

void add_warp_sweep_command(CLI::App& cli, Action& action) {
    auto o = std::make_shared<SweepOptions>();
    CLI::App* sub =
        cli.add_subcommand("warp-sweep",
                           "Worst, best, FT and verdict for every (threads, rep) point; progress on stderr after the\n"
                           "first second; Ctrl-C prints the rows done so far (exit 130). Default engine: explicit.\n"
                           "Exit 0 when the sweep completed, also when some point refutes FT (a refuted point is a\n"
                           "result; --fail-on-refuted exits 1 then); 2 when some point is unknown (timeout or memory\n"
                           "limit) and, with --fail-on-refuted, none refuted; 3 input error; 4 engines disagree.\n" +
                               limits_text);
    sub->add_option("--threads", o->threads, "FIRST:LAST[:STEP] (default 16:256:16)")->type_name("FIRST:LAST[:STEP]");
    sub->add_option("--rep", o->rep, "FIRST:LAST (default 1:8)")->type_name("FIRST:LAST");
    add_model_options(sub, *o);
    sub->add_option("--engine", o->engine, "explicit (default), auto, bounds, smt or both; as for warp")
        ->type_name("ENGINE");
    sub->add_flag("--fail-on-refuted", o->fail_on_refuted, "exit 1 when some point refutes FT");
    sub->add_flag("--csv", o->csv, "print CSV instead of a table");
    sub->callback([o, &action] {
        run_on_every_process();  // under mpirun the points are split over the processes
        action = [o] { return run_sweep(*o); };
    });
}

}  // namespace gpuwcrt::app
