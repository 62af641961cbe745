#pragma once
// Each subcommand registers itself on the CLI; parsing leaves the chosen command's work in
// `action`, which main() runs under one error policy (exit codes in exit_codes.hpp).
#include <functional>

#include <CLI/CLI.hpp>

namespace gpuwcrt::app {

using Action = std::function<int()>;

void add_simulate_command(CLI::App& cli, Action& action);
void add_warp_command(CLI::App& cli, Action& action);
void add_warp_sweep_command(CLI::App& cli, Action& action);
void add_wcrt_command(CLI::App& cli, Action& action);
void add_certify_command(CLI::App& cli, Action& action);
void add_rta_command(CLI::App& cli, Action& action);
void add_rta_check_command(CLI::App& cli, Action& action);
void add_rta_falsify_command(CLI::App& cli, Action& action);
void add_import_examiner_command(CLI::App& cli, Action& action);
void add_import_amalthea_command(CLI::App& cli, Action& action);
void add_compare_trace_command(CLI::App& cli, Action& action);

}  // namespace gpuwcrt::app
