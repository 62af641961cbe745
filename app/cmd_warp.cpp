// `gpuwcrt warp` and `gpuwcrt warp-sweep`: the finishing-time conjecture of Raravi & Andersson
// (SPEC §8) checked by exact worst/best-case makespans over all fair, work-conserving warp
// interleavings.
#include <atomic>
#include <csignal>
#include <iostream>
#include <memory>
#include <sstream>

#include <unistd.h>

#include "app/commands.hpp"
#include "app/exit_codes.hpp"
#include "bounds/warp_toml.hpp"
#include "model/source_location.hpp"
#include "bounds/warp_tr.hpp"
#include "report/text_table.hpp"
#include "report/warp_schedule_text.hpp"
#include "solver/warp_check.hpp"

namespace gpuwcrt::app {
namespace {

struct WarpModelOptions {
    std::string program_file;
    std::string fairness;
    std::string engine;
    int warp_size = 16, cuda = 2, ldst = 1, issue_limit = 0;
    std::vector<std::string> latency;
    int timeout_seconds = 60;
};

struct WarpOptions : WarpModelOptions {
    long long threads = 0;
    int warps = 0;
    int rep = 0;
    bool json = false, schedule = false;
};

struct SweepOptions : WarpModelOptions {
    std::string threads = "16:256:16";
    std::string rep = "1:8";
    bool csv = false;
};

InputError option_error(const std::string& message) { return InputError({"command line", 0, 0}, message); }

// Machine, program and default rep/fairness, from --program or the TR flags.
WarpSpec model_from(const WarpModelOptions& o) {
    WarpSpec spec;
    if (!o.program_file.empty()) {
        spec = load_warp_spec_file(o.program_file);
    } else {
        FermiUnits u;
        u.warp_size = o.warp_size;
        u.cuda = o.cuda;
        u.ldst = o.ldst;
        if (o.issue_limit > 0) u.issue_limit = o.issue_limit;
        for (const auto& l : o.latency) {
            const auto eq = l.find('=');
            int v = 0;
            try { v = eq == std::string::npos ? 0 : std::stoi(l.substr(eq + 1)); } catch (const std::exception&) {}
            int* target = l.empty() ? nullptr : l[0] == 'C' ? &u.latency_c : l[0] == 'L' ? &u.latency_l
                                                : l[0] == 'S' ? &u.latency_s : nullptr;
            if (eq != 1 || v < 1 || !target)
                throw option_error("--latency takes CLASS=CYCLES with CLASS C, L or S, got '" + l + "'");
            *target = v;
        }
        spec.machine = fermi_machine(u);
        spec.program = tr_program(spec.machine);
    }
    if (!o.fairness.empty()) {
        spec.fairness = parse_warp_fairness(o.fairness);
        if (!spec.fairness) throw option_error("--fairness must be subblock, strict or none");
    }
    return spec;
}

WarpEngines engines_from(const WarpModelOptions& o, const std::string& fallback) {
    const std::string e = o.engine.empty() ? fallback : o.engine;
    WarpEngines out;
    if (e == "smt") out.explicit_state = false, out.smt = true;
    else if (e == "both") out.smt = true;
    else if (e != "explicit") throw option_error("--engine must be smt, explicit or both");
    if (o.timeout_seconds > 0) out.smt_options.timeout = std::chrono::milliseconds(1000LL * o.timeout_seconds);
    return out;
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

std::string opt_int(const std::optional<int>& v) { return v ? std::to_string(*v) : "unknown"; }
std::string opt_ll(const std::optional<long long>& v) { return v ? std::to_string(*v) : "-"; }

int exit_code_of(const WarpCheck& c) {
    if (c.engines_disagree) return exit_internal_error;
    switch (c.outcome) {
        case WarpOutcome::refuted: return exit_refuted;
        case WarpOutcome::unknown: return exit_unknown;
        default: return exit_ok;
    }
}

void print_engines(std::ostream& out, const WarpCheck& c) {
    for (const auto& r : c.runs) {
        out << "  " << r.engine << ": worst " << opt_int(r.worst) << ", best " << opt_int(r.best) << ", ";
        if (r.engine == "explicit") out << r.states << " states";
        else out << r.checks << " solver checks";
        out << ", " << r.milliseconds << " ms";
        if (!r.unknown_reason.empty())
            out << " (unknown: " << r.unknown_reason << "; worst >= " << r.worst_bound << ", best <= " << r.best_bound << ")";
        out << '\n';
    }
    if (c.engines_disagree) out << "  ENGINES DISAGREE: this is a bug, not a result\n";
}

Json check_json(const WarpCheck& c) {
    Json j;
    j["threads"] = c.threads;
    j["warps"] = c.problem.warps;
    j["rep"] = c.problem.rep;
    j["fairness"] = to_string(c.problem.fairness);
    j["ft"] = c.ft ? Json(*c.ft) : Json(nullptr);
    j["worst"] = c.worst ? Json(*c.worst) : Json(nullptr);
    j["best"] = c.best ? Json(*c.best) : Json(nullptr);
    j["verdict"] = c.verdict;
    j["schedule"] = warp_schedule_json(c.worst_schedule);
    Json engines = Json::array();
    for (const auto& r : c.runs)
        engines.push_back({{"engine", r.engine}, {"worst", r.worst ? Json(*r.worst) : Json(nullptr)},
                           {"best", r.best ? Json(*r.best) : Json(nullptr)}, {"milliseconds", r.milliseconds},
                           {"unknown", r.unknown_reason}});
    j["engines"] = engines;
    j["engines_agree"] = !c.engines_disagree;
    return j;
}

int run_warp(const WarpOptions& o) {
    const WarpSpec spec = model_from(o);
    if ((o.threads > 0) == (o.warps > 0)) throw option_error("give exactly one of --threads and --warps");
    const int warps = o.warps > 0 ? o.warps : warps_for_threads(o.threads, spec.machine.warp_size);
    const long long threads = o.threads > 0 ? o.threads : static_cast<long long>(warps) * spec.machine.warp_size;
    const int rep = o.rep > 0 ? o.rep : spec.rep.value_or(1);
    const WarpCheck c = check_warp(problem_for(spec, warps, rep), threads, engines_from(o, "both"));
    if (o.json) {
        std::cout << check_json(c).dump(2) << '\n';
        return exit_code_of(c);
    }
    std::cout << "threads " << threads << " -> W = " << warps << " warps of " << spec.machine.warp_size
              << ", rep " << rep << ", fairness " << to_string(c.problem.fairness) << '\n'
              << "FT(n, rep)           " << opt_ll(c.ft) << '\n'
              << "worst-case makespan  " << opt_int(c.worst) << '\n'
              << "best-case makespan   " << opt_int(c.best) << '\n'
              << "verdict              " << c.verdict << '\n';
    print_engines(std::cout, c);
    if ((o.schedule || c.outcome == WarpOutcome::refuted) && c.worst) {
        std::cout << "\nworst-case interleaving (makespan " << *c.worst << "):\n";
        print_warp_schedule(std::cout, c.worst_schedule, spec.machine.warp_size, threads);
        if (o.schedule && c.best) {
            std::cout << "\nbest-case interleaving (makespan " << *c.best << "):\n";
            print_warp_schedule(std::cout, c.best_schedule, spec.machine.warp_size, threads);
        }
    }
    return exit_code_of(c);
}

std::atomic<bool> interrupted{false};
extern "C" void on_sigint(int) { interrupted = true; }

struct Range {
    long long first, last, step;
};

Range parse_range(const std::string& text, const char* what, bool with_step) {
    std::vector<long long> parts;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ':');) {
        try {
            std::size_t used = 0;
            parts.push_back(std::stoll(item, &used));
            if (used != item.size()) throw std::invalid_argument(item);
        } catch (const std::exception&) {
            throw option_error(std::string(what) + ": '" + text + "' is not FIRST:LAST" + (with_step ? "[:STEP]" : ""));
        }
    }
    if (parts.size() == 1) parts = {parts[0], parts[0], 1};
    if (parts.size() == 2) parts.push_back(1);
    if (parts.size() != 3 || (!with_step && parts[2] != 1) || parts[0] < 1 || parts[1] < parts[0] || parts[2] < 1)
        throw option_error(std::string(what) + ": '" + text + "' is not a range FIRST:LAST" + (with_step ? "[:STEP]" : "") +
                           " of positive integers");
    return {parts[0], parts[1], parts[2]};
}

int run_sweep(const SweepOptions& o) {
    const WarpSpec spec = model_from(o);
    const WarpEngines engines = engines_from(o, "explicit");
    const Range threads = parse_range(o.threads, "--threads", true), reps = parse_range(o.rep, "--rep", false);
    std::vector<std::pair<long long, int>> points;
    for (long long n = threads.first; n <= threads.last; n += threads.step)
        for (long long r = reps.first; r <= reps.last; ++r) points.emplace_back(n, static_cast<int>(r));

    interrupted = false;
    const bool tty = isatty(2);  // a terminal gets one updated line, a log one line per point
    auto previous = std::signal(SIGINT, on_sigint);
    std::vector<WarpCheck> done;
    for (std::size_t i = 0; i < points.size() && !interrupted; ++i) {
        const auto [n, rep] = points[i];
        std::cerr << (tty ? "\r" : "") << "warp-sweep: point " << i + 1 << "/" << points.size() << " (threads " << n << ", rep " << rep
                  << ")" << (tty ? "   " : "\n") << std::flush;
        done.push_back(check_warp(problem_for(spec, warps_for_threads(n, spec.machine.warp_size), rep), n, engines));
    }
    std::signal(SIGINT, previous);
    if (tty) std::cerr << '\n';

    int code = exit_ok;
    const std::vector<std::string> header{"threads", "warps", "rep", "FT", "worst", "best", "verdict"};
    TextTable table(header);
    if (o.csv) {
        for (std::size_t i = 0; i < header.size(); ++i) std::cout << (i ? "," : "") << header[i];
        std::cout << '\n';
    }
    for (const auto& c : done) {
        std::vector<std::string> row{std::to_string(c.threads), std::to_string(c.problem.warps), std::to_string(c.problem.rep),
                                     opt_ll(c.ft), opt_int(c.worst), opt_int(c.best), c.verdict};
        if (c.engines_disagree) row.back() += " [ENGINES DISAGREE]";
        if (o.csv) {
            for (std::size_t i = 0; i < row.size(); ++i) std::cout << (i ? "," : "") << (i + 1 == row.size() ? "\"" + row[i] + "\"" : row[i]);
            std::cout << '\n';
        } else {
            table.add(row);
        }
        code = std::max(code, exit_code_of(c) == exit_internal_error ? 4 : exit_code_of(c) == exit_unknown ? 2
                                                                      : exit_code_of(c));
    }
    if (!o.csv) table.print(std::cout);
    if (interrupted) {
        std::cerr << "warp-sweep: interrupted after " << done.size() << " of " << points.size() << " points\n";
        return 130;
    }
    return code;
}

void add_model_options(CLI::App* sub, WarpModelOptions& o) {
    sub->add_option("--program", o.program_file,
                    "warp machine and program TOML (cases/raravi2010/*.toml); default: the TR's Fermi SM\n"
                    "and program C (L L C)xrep S");
    sub->add_option("--fairness", o.fairness,
                    "subblock (default, SPEC §8: epilogue at level rep), strict (epilogue at rep+1), none");
    sub->add_option("--engine", o.engine, "smt, explicit or both (cross-checked; a disagreement exits 4)");
    sub->add_option("--warp-size", o.warp_size, "threads per warp (TR: 16)");
    sub->add_option("--cuda", o.cuda, "CUDA warp-instructions per cycle (TR: 2)");
    sub->add_option("--ldst", o.ldst, "LOAD/STORE warp-instructions per cycle (TR: 1)");
    sub->add_option("--issue-limit", o.issue_limit, "total warp-instructions per cycle (default: no limit)");
    sub->add_option("--latency", o.latency, "CLASS=CYCLES, e.g. L=4: cycles from issuing to the warp's next issue");
    sub->add_option("--timeout", o.timeout_seconds, "SMT budget in seconds for each point (0 = none; default 60)");
}

}  // namespace

void add_warp_command(CLI::App& cli, Action& action) {
    auto o = std::make_shared<WarpOptions>();
    CLI::App* sub = cli.add_subcommand(
        "warp",
        "Exact worst- and best-case makespan of W warps over all work-conserving, sub-block-fair\n"
        "interleavings (Raravi & Andersson, SPEC §8), compared with the conjecture FT(n, rep).\n"
        "Exit 0 holds, 1 refuted, 2 unknown (SMT timeout), 3 input error, 4 engines disagree.");
    sub->add_option("--threads", o->threads, "number of threads n (W = ceil(n / warp size))");
    sub->add_option("--warps", o->warps, "number of warps W instead of --threads");
    sub->add_option("--rep", o->rep, "repetitions of the sub-block (default: the program file's, else 1)");
    add_model_options(sub, *o);
    sub->add_flag("--json", o->json, "print {threads, warps, rep, fairness, ft, worst, best, verdict, schedule}");
    sub->add_flag("--schedule", o->schedule, "print the worst- and best-case interleavings (always on refutation)");
    sub->callback([o, &action] { action = [o] { return run_warp(*o); }; });
}

void add_warp_sweep_command(CLI::App& cli, Action& action) {
    auto o = std::make_shared<SweepOptions>();
    CLI::App* sub = cli.add_subcommand(
        "warp-sweep",
        "Worst, best, FT and verdict for every (threads, rep) point; progress on stderr; Ctrl-C\n"
        "prints the rows done so far (exit 130). Default engine: explicit.");
    sub->add_option("--threads", o->threads, "FIRST:LAST:STEP (default 16:256:16)");
    sub->add_option("--rep", o->rep, "FIRST:LAST (default 1:8)");
    add_model_options(sub, *o);
    sub->add_flag("--csv", o->csv, "print CSV instead of a table");
    sub->callback([o, &action] { action = [o] { return run_sweep(*o); }; });
}

}  // namespace gpuwcrt::app
