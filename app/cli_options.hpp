#pragma once
// Options and helpers several subcommands share.
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "model/io/load_toml.hpp"
#include "report/chart_context.hpp"
#include "sim/scenario.hpp"
#include "sim/schedule.hpp"

namespace gpuwcrt::app {

// Comma-separated operation names as given to `option` (--order, --launch-order), each
// trimmed of blanks at its ends. An empty or repeated name is an input error naming the option.
std::vector<std::string> split_names(const std::string& comma_separated, const std::string& option);

// A --order-style option whose value is kept only when given, so that `--order ""` is an
// error (empty name) rather than the same as no --order.
void add_names_option(CLI::App* sub, const std::string& option, std::optional<std::string>& value,
                      const std::string& help);

// The names of an option added by add_names_option; empty when it was not given.
std::vector<std::string> names_of(const std::optional<std::string>& value, const std::string& option);
void add_policy_option(CLI::App* sub, std::string& policy);
// --exact of every command that prints tables of times: exact values (fractions where a decimal
// does not end) instead of decimals rounded to 6 digits (report/time_notation.hpp).
void add_exact_option(CLI::App* sub);
void write_gantt_svg(const std::string& path, const Workload& w, const Schedule& s, const ChartContext& ctx);

// Outputs that list every block are refused before any work above these sizes: a chart
// simulates and lays out every block, a JSON or table of more takes gigabytes to build. Documented in
// docs/guide/limits.md ("Size").
inline constexpr std::int64_t max_svg_blocks = 20'000;
inline constexpr std::int64_t max_listed_blocks = 1'000'000;
// `svg` empty: no chart asked for; `listing`: the option that lists every block ("--json" or
// "--blocks" of `simulate`), empty for none.
void check_block_outputs(const Workload& w, const std::string& svg, const std::string& listing = "");

}  // namespace gpuwcrt::app
