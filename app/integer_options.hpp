#pragma once
// CLI11 2.1 reads integer options with strtoll(…, base 0): "010" is 8, "0x10" is 16, and a
// value beyond 64 bits silently becomes the largest one; an unsigned option takes "-1" as
// 2^64 - 1. Every integer option of every command is therefore first checked to be a plain
// decimal integer within 64 bits (else an input error naming the option).
#include <CLI/CLI.hpp>

namespace gpuwcrt::app {

// Applies to every integer option of `app` and of its subcommands, however deep; call it
// after all commands have registered their options.
void require_decimal_integers(CLI::App& app);

}  // namespace gpuwcrt::app
