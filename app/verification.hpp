#pragma once
// What `wcrt` and `certify` share: options, engine selection, RTA comparison columns,
// progress on stderr, and witness output (JSON, SVG, replayable TOML).
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/phase_progress.hpp"
#include "bounds/engine_options.hpp"
#include "report/context/output_context.hpp"
#include "report/json.hpp"
#include "report/text_table.hpp"
#include "bounds/answer.hpp"
#include "common/budget.hpp"
#include "solver/engine.hpp"
#include "solver/registry.hpp"
#include "solver/rta/rta_columns.hpp"

namespace gpuwcrt::app {

struct VerifyOptions {
    std::string file;
    std::string engine{default_engine};
    std::string policy = "any";
    std::optional<std::string> timeout;  // command-line text, seconds; checked and converted by engine_options
    std::optional<long long> threads;    // --threads; checked by engine_options
    bool json = false;
    bool csv = false;
    bool wide = false;  // long lists in full in the text tables
    std::string svg;
    std::optional<std::string> svg_window;  // --svg-window of wcrt and certify; checked by svg_window
};

void add_verify_options(CLI::App* sub, VerifyOptions& o);
// Throws option_error for a --timeout that is not a number of seconds in
// [0.001, max_timeout_seconds], and for --threads outside [1, max_threads].
// The whole run's budget: --timeout from now (none without it), the default memory.
Budget run_budget(const VerifyOptions& o);
EngineOptions engine_options(const VerifyOptions& o);
inline constexpr long long max_threads = 64;
inline constexpr long long max_timeout_seconds = 10'000'000;  // ~116 days; ms fit any clock
std::chrono::milliseconds parse_timeout(const std::string& seconds);
// The same check and conversion for any option that takes seconds (errors name `option`).
std::chrono::milliseconds parse_seconds_option(const std::string& option, const std::string& seconds);

// --rta-timeout of wcrt and rta-check: the time the search for "RTA maximised over launch
// orders" may take, inside --timeout. The default is enough for 64 kernels of the benchmark family.
inline constexpr long long default_rta_timeout_seconds = 60;
void add_rta_timeout_option(CLI::App* sub, std::optional<std::string>& text);
std::chrono::milliseconds rta_timeout(const std::optional<std::string>& text);
// A decimal exponent of five or more digits ("1e-99999"): reading it exactly costs time
// quadratic in the exponent, so command-line times refuse it before parsing.
bool huge_exponent(const std::string& text);

// The column's header: it names an approximation once, for every row.
std::string rta_max_header(const RtaColumns& c);
// The RTA columns' text: a value, or the interval "[a, b]" of an undecided maximum.
TextWithTimes rta_max_text(const RtaColumns& c, int op);
Json rta_max_json(const RtaColumns& c, int op);

// The context of a --json output of `command` (report/context/): the verification options.
OutputContext verify_context(const std::string& command, const VerifyOptions& o, const Workload& w);

// A witness for a table line: whole when short (describe_witness), else its launch order
// shortened to fit (compact_list) and where its SMs and block times are; --wide: always whole.
// (The JSON and the --counterexample file always hold the whole witness.)
std::string witness_summary(const Workload& w, const WitnessScenario& x, bool wide);
// The witness order for a table column: the names, shortened unless --wide.
std::string witness_order(const Workload& w, const WitnessScenario& x, bool wide);

Json witness_json(const Workload& w, const WitnessScenario& x);
std::string time_or_dash(const std::optional<Time>& t);
Json time_or_null(const std::optional<Time>& t);

// A TOML copy of the workload whose [scenario] fixes the witness, so that
// `gpuwcrt simulate FILE` reproduces it.
std::string witness_toml(const Workload& w, const WitnessScenario& x, const std::string& why);

}  // namespace gpuwcrt::app
