#pragma once
// CLI11's parse errors in the one format every gpuwcrt command-line error uses:
// "gpuwcrt: --threads: must be an integer, got 'abc'" (an option the user gave) or
// "gpuwcrt: simulate: missing argument 'file' …" (no option to name).
#include <string>

#include <CLI/CLI.hpp>

namespace gpuwcrt::app {

// `cli` is the root app after the failed parse: its state (the chosen subcommand, the
// arguments nobody accepted) names what the user gave better than CLI11's own text.
std::string parse_error_message(const CLI::App& cli, const CLI::ParseError& error);

// A command-line value as messages echo it: in quotes, control characters as \xNN so that
// an argument cannot drive the terminal.
std::string quoted_value(const std::string& value);

}  // namespace gpuwcrt::app
