#pragma once
// Options and helpers several subcommands share.
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "model/load_toml.hpp"
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
Policy policy_from_option(const std::string& name);
void write_gantt_svg(const std::string& path, const Workload& w, const Schedule& s);

}  // namespace gpuwcrt::app
