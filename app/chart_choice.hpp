#pragma once
// The chart that wcrt and certify write with --svg: which operation (the first --op of wcrt,
// else the critical one of report/critical_operation.hpp) and which window (--svg-window, else
// the whole schedule or, over frames, the window around that operation's frame). Both commands
// and the all-time files choose here, so that they draw the same operation.
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/verification.hpp"
#include "report/chart_context.hpp"
#include "report/critical_operation.hpp"

namespace gpuwcrt::app {

// `charts_an_operation`: the command charts one operation (wcrt, certify), whose frame the
// chart shows by default.
void add_svg_window_option(CLI::App* sub, std::optional<std::string>& text, bool charts_an_operation = true);
// --svg-window FROM:TO, checked (an option_error names what is wrong: exit 3); none when not
// given. Call before any work.
std::optional<TimeWindow> svg_window(const VerifyOptions& o);
// The same for a command without VerifyOptions: the option's text and the --svg path.
std::optional<TimeWindow> svg_window(const std::optional<std::string>& window, const std::string& svg);

// wcrt's answers (the bound: the deadline) and certify's (the bound checked). Over one frame
// every operation can be charted: without a witness, in the scenario `simulate` runs.
std::vector<MarginRow> margin_rows(const Workload& w, const std::vector<WcrtAnswer>& answers);
std::vector<MarginRow> margin_rows(const std::vector<CertifyAnswer>& answers);

// `given` when set, else the critical operation of `rows`.
std::optional<int> chart_operation(const std::vector<MarginRow>& rows, std::optional<int> given);

// Over one frame, writes o.svg: `a`'s witness, else the scenario `simulate` runs (a scenario in
// which it responds as charted), its deadline marked.
void write_answer_chart(const VerifyOptions& o, const Workload& w, const WcrtAnswer& a);
// certify: `a`'s counterexample when it refuted the bound, else as above with the bound marked.
void write_answer_chart(const VerifyOptions& o, const Workload& w, const CertifyAnswer& a);

}  // namespace gpuwcrt::app
