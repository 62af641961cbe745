#pragma once

namespace gpuwcrt::app {

// Stable exit codes that scripts can rely on (README "Exit codes").
enum ExitCode : int {
    exit_ok = 0,              // success; for certify: every bound certified
    exit_refuted = 1,         // certify: some bound refuted (counterexample printed)
    exit_unknown = 2,         // certify: none refuted, some unknown (timeout, resource limit)
    exit_input_error = 3,     // bad input: file:line:column: message on stderr
    exit_internal_error = 4,  // a bug: an engine disagreed with the simulator, or similar
};

}  // namespace gpuwcrt::app
