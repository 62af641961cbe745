#pragma once
// Options and helpers several subcommands share.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "model/load_toml.hpp"
#include "sim/scenario.hpp"
#include "sim/schedule.hpp"

namespace gpuwcrt::app {

std::vector<std::string> split_names(const std::string& comma_separated);
void add_policy_option(CLI::App* sub, std::string& policy);
Policy policy_from_option(const std::string& name);
void write_gantt_svg(const std::string& path, const Workload& w, const Schedule& s);

}  // namespace gpuwcrt::app
