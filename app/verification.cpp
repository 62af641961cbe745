#include "app/verification.hpp"

#include <iostream>
#include <map>

#include "app/cli_options.hpp"
#include "bounds/engine_options.hpp"
#include "bounds/rta/rta_scope.hpp"
#include "model/io/write_toml.hpp"
#include "report/compact/compact_list.hpp"
#include "report/display_width.hpp"

namespace gpuwcrt::app {

void add_verify_options(CLI::App* sub, VerifyOptions& o) {
    sub->add_option("file", o.file, "workload TOML file ('-' reads standard input)")->required();
    sub->add_option("--engine", o.engine,
                    "auto (default): a plan chosen from cheap estimates: with point times and a small\n"
                    "state estimate exact first (bounds beside it once it runs long), else bounds first;\n"
                    "then exact and smt on what is still open; it stops once every operation is decided,\n"
                    "within --timeout; each value says which engine gave it (docs/theory/verification-engines.md).\n"
                    "bounds: the interval abstraction (docs/theory/abstraction.md): a proven upper bound for\n"
                    "every operation and a replayed lower bound, exact when they meet; ranges over\n"
                    "block-time intervals and issue windows, priorities, the NULL stream and copies.\n"
                    "exact: explicit-state search over the scheduler's states, every operation at once\n"
                    "(docs/theory/exact-engine.md; copies, priorities, the NULL stream; intervals and windows\n"
                    "on the tick grid, as lower bounds).\n"
                    "smt: Z3 over the block-level encoding, one operation at a time (docs/theory/encoding.md).\n"
                    "enumerate: every scenario through the simulator (the reference; exponential).\n"
                    "smt and enumerate range over block-time intervals and issue windows on the grid 1/s "
                    "(s: the common denominator of the times): the grid maximum is a lower bound, exact only "
                    "when a proven upper bound meets it")
        ->check(CLI::IsMember(engine_names()));
    sub->add_option("--policy", o.policy,
                    "SM placement: any (default: every SM where a block fits, sound for the unknown\n"
                    "hardware heuristic), or fix it: most-room, round-robin, first-fit")
        ->check(CLI::IsMember({"any", "most-room", "round-robin", "first-fit"}));
    sub->add_option("--timeout", o.timeout,
                    "seconds for the whole run, from 0.001 to 10000000 (read exactly: 0.5, 1e3, 1/3;\n"
                    "rounded up to whole milliseconds); what is not decided by then is 'unknown', never\n"
                    "certified. Default: 60 s + 0.1 s per operation, at most 900 s (periodic streams:\n"
                    "60 s, the all-time analysis); a run it stops prints its proven bounds, 'unknown\n"
                    "(time limit)', exit 2. SIGINT or SIGTERM stops a run so too ('unknown (interrupted)')");
    sub->add_option("--threads", o.threads,
                    "worker threads of the exact engine's search (--engine exact, and auto's exact\n"
                    "phase), 1 to 64; default: the number of cores, at most 8. The answers and\n"
                    "witnesses do not depend on it, only the time")
        ->type_name("N");
    CLI::Option* json = sub->add_flag("--json", o.json,
                                      "print JSON for scripts: the run's context (tool, command, input, options,\n"
                                      "time_unit), then per operation its values, deadline and deadline_met (times\n"
                                      "as exact strings \"3/2\"; schema: docs/schema/" +
                                          sub->get_name() + ".json)");
    sub->add_flag("--csv", o.csv,
                  "print CSV: a header row, then one row per operation with the values of --json (no\n"
                  "witnesses)")
        ->excludes(json);
    add_exact_option(sub);
    sub->add_flag("--wide", o.wide,
                  "print long lists in full in the table (witness orders, the SM of every block); by\n"
                  "default they are shortened to keep lines within about 120 columns");
    sub->add_option("--svg", o.svg,
                    "write the schedule of the (first) witness/counterexample as an SVG chart (default: none;\n"
                    "when there is none, stderr says so and nothing is written)");
}

EngineOptions engine_options(const VerifyOptions& o) {
    EngineOptions e;
    e.policy = o.policy == "any" ? Policy::chooser : *parse_policy(o.policy);
    if (o.timeout) (void)parse_timeout(*o.timeout);  // refused before any work
    if (o.threads) {
        if (*o.threads < 1 || *o.threads > max_threads)
            throw option_error("--threads", "must be between 1 and " + std::to_string(max_threads) + ", got " +
                                                std::to_string(*o.threads));
        e.threads = static_cast<int>(*o.threads);
    }
    return e;
}

bool huge_exponent(const std::string& text) {
    std::string plain;  // as parse_time reads it: '_' and ' ' are digit separators
    for (char c : text)
        if (c != '_' && c != ' ') plain.push_back(c);
    const auto e = plain.find_last_of("eE");
    if (e == std::string::npos) return false;
    std::string digits = plain.substr(e + 1);
    if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) digits.erase(0, 1);
    return digits.size() > 4 && digits.find_first_not_of("0123456789") == std::string::npos;
}

std::chrono::milliseconds parse_seconds_option(const std::string& option, const std::string& seconds) {
    const std::string range = "must be between 0.001 and " + std::to_string(max_timeout_seconds) + " seconds, got ";
    if (huge_exponent(seconds)) throw option_error(option, range + seconds);
    const std::optional<Time> t = parse_time(seconds);
    if (!t || *t <= 0)
        throw option_error(option, "must be a positive number of seconds, got " + (seconds.empty() ? "''" : seconds));
    if (*t > max_timeout_seconds || *t < Time(1, 1000)) throw option_error(option, range + seconds);
    const Time ms = *t * 1000;  // rounded up to whole milliseconds (said in --help)
    BigInt whole = boost::multiprecision::numerator(ms) / boost::multiprecision::denominator(ms);
    if (whole < ms) ++whole;
    return std::chrono::milliseconds(static_cast<long long>(whole));
}

Budget run_budget(const VerifyOptions& o) {
    Budget b = Budget::for_timeout(o.timeout ? std::optional(parse_timeout(*o.timeout)) : std::nullopt);
    b.leave_table_on_timeout = true;  // the commands end right after their run
    return b;
}

std::chrono::milliseconds parse_timeout(const std::string& seconds) {
    return parse_seconds_option("--timeout", seconds);
}

void add_rta_timeout_option(CLI::App* sub, std::optional<std::string>& text) {
    sub->add_option("--rta-timeout", text,
                    "seconds the search for the RTA maximised over launch orders may take (beside the\n"
                    "engines, inside --timeout; default " +
                        std::to_string(default_rta_timeout_seconds) +
                        "); it stops 1 s after the start once the engines are done; a kernel it leaves\n"
                        "undecided shows its interval [lower, upper]")
        ->type_name("SECONDS");
}

std::chrono::milliseconds rta_timeout(const std::optional<std::string>& text) {
    return text ? parse_seconds_option("--rta-timeout", *text) : std::chrono::seconds(default_rta_timeout_seconds);
}

OutputContext verify_context(const std::string& command, const VerifyOptions& o, const Workload& w) {
    OutputContext c = workload_context(command, o.file, w);
    c.options = {{"engine", o.engine},
                 {"policy", o.policy},
                 {"timeout", o.timeout ? Json(*o.timeout) : Json(nullptr)},
                 {"threads", o.threads ? Json(*o.threads) : Json(nullptr)}};
    return c;
}

std::string witness_order(const Workload& w, const WitnessScenario& x, bool wide) {
    std::vector<std::string> names;
    for (int op : x.launch_order) names.push_back(w.ops[op].name);
    return compact_list(names, wide ? std::string::npos : 36, "ops", ",");
}

std::string witness_summary(const Workload& w, const WitnessScenario& x, bool wide) {
    // Short witnesses read best whole; a long one (a block list of thousands of characters)
    // gives way to its order and a pointer to where the rest is.
    const std::string whole = describe_witness(w, x);
    if (wide || display_width(whole) <= 90) return whole;
    return "order " + witness_order(w, x, false) + "; SMs: --wide";
}

TextWithTimes rta_max_text(const RtaColumns& c, int op) {
    const auto& a = c.max_over_orders[op];
    TextWithTimes text;
    if (a.exact()) return text.add(*a.exact(), Rounding::up);
    if (!a.upper) return TextWithTimes("-");
    text += "[";
    if (a.lower) text.add(*a.lower, Rounding::down);
    else text += "?";
    (text += ", ").add(*a.upper, Rounding::up);
    return text += "]";
}

std::string rta_max_header(const RtaColumns& c) {
    return c.scope == rta_scope_name(true) ? "rta(max over orders)" : "rta(max, approximation)";
}

Json rta_max_json(const RtaColumns& c, int op) {
    const auto& a = c.max_over_orders[op];
    if (a.exact()) return exact_string(*a.exact());
    if (a.upper) return {{"lower", time_or_null(a.lower)}, {"upper", exact_string(*a.upper)}};
    return nullptr;
}

namespace {

// Appends a member without the ordered map's search for an existing key, which is linear: the
// keys here are operation names, unique, and a witness of 10^4 operations must be written in
// linear time.
void append_member(Json& object, const std::string& key, Json value) {
    object.get_ref<Json::object_t&>().emplace_back(key, std::move(value));
}

}  // namespace

Json witness_json(const Workload& w, const WitnessScenario& x) {
    Json order = Json::array(), sm = Json::object(), block_time = Json::object(), issue = Json::object();
    std::map<Time, std::string> written;
    for (int op : x.launch_order) order.push_back(w.ops[op].name);
    for (std::size_t i = 0; i < x.sm.size(); ++i)
        if (!x.sm[i].empty()) append_member(sm, w.ops[i].name, x.sm[i]);
    Json out = {{"order", order}, {"sm", sm}};
    for (std::size_t i = 0; i < x.block_time.size(); ++i) {
        if (x.block_time[i].empty()) continue;
        Json times = Json::array();
        for (const Time& t : x.block_time[i]) {
            // Most blocks share a few times; writing a rational is a multi-precision division.
            auto [at, fresh] = written.try_emplace(t);
            if (fresh) at->second = exact_string(t);
            times.push_back(at->second);
        }
        append_member(block_time, w.ops[i].name, std::move(times));
    }
    for (std::size_t i = 0; i < x.issue.size(); ++i)
        if (x.issue[i]) append_member(issue, w.ops[i].name, exact_string(*x.issue[i]));
    if (!block_time.empty()) out["block_time"] = std::move(block_time);
    if (!issue.empty()) out["issue"] = std::move(issue);
    return out;
}

std::string time_or_dash(const std::optional<Time>& t) { return t ? human_string(*t) : "-"; }

Json time_or_null(const std::optional<Time>& t) { return t ? Json(exact_string(*t)) : Json(nullptr); }

std::string witness_toml(const Workload& w, const WitnessScenario& x, const std::string& why) {
    Workload copy = w;
    copy.expectations.clear();
    copy.scenario = fixed_scenario(w, x);
    TomlWriteOptions opts;
    opts.comments = {why, "The [scenario] table fixes the launch order and the SM of every block (and block",
                     "times and issue instants that are not the simulator's defaults);",
                     "'gpuwcrt simulate' on this file reproduces the schedule."};
    return workload_to_toml(copy, opts);
}

}  // namespace gpuwcrt::app
