#pragma once
// The row of one operation's answer, as every table, JSON and CSV of `wcrt` and `certify`
// writes it, one frame or all time (app/frames/): the keys and cells they share, written once.
#include <optional>
#include <string>
#include <vector>

#include "bounds/answer.hpp"
#include "report/json.hpp"
#include "report/text_table.hpp"

namespace gpuwcrt::app {

// Who gave the lower bound, and after a slash who proved the upper bound when another; "-"
// without a lower bound.
std::string by_text(const WcrtAnswer& a);

// deadline - upper bound, when both are known: how far every response stays within the
// deadline (negative: the deadline is not proven to hold).
std::optional<Time> deadline_margin(const Workload& w, const WcrtAnswer& a);

// certify: how far a certified bound is above the proven upper bound: exactly the margin when
// the WCRT is known (lower = upper), else a lower bound on it; none unless certified.
std::optional<Time> certified_margin(const CertifyAnswer& a);
// Its text: "-", or "≥ X" when only a lower bound on the margin is known (rounded down).
TextWithTimes certified_margin_text(const CertifyAnswer& a);

// The met column: "-" without a deadline, "?" when the bounds leave it open, "yes", "MISSED".
std::string met_text(const Workload& w, const WcrtAnswer& a);

// The JSON row of an answer: "name", "kind", "stream", "wcrt", "status", "upper_bound", then
// `own`'s keys (the command's own: witness and RTA columns, the frame), "unknown_reason" when
// unknown, "lower_bound", "lower_by", "upper_by", "deadline", "deadline_met", "margin". With
// certify's `verdict` on the operation's bound (over all time), "margin" is the certified one
// and "bound", "verdict" close the row.
Json answer_row_json(const Workload& w, const WcrtAnswer& a, const Json& own, const CertifyAnswer* verdict = nullptr);

// certify's JSON row over one frame, where the verdict is the answer: "name", "kind",
// "stream", "bound", "verdict", the counterexample's "response" and "counterexample",
// "unknown_reason" when the verdict is unknown, "busy_time_bound" when it certified, the
// certified "margin" and "margin_exact", the bounds with their provenance, the file's deadline.
Json verdict_row_json(const Workload& w, const CertifyAnswer& v);

// The CSV columns of answer_row_json's keys (the JSON's "name" is the CSV's "operation"), then
// the command's own, `after`, then "unknown_reason".
std::vector<std::string> answer_csv_columns(const std::vector<std::string>& after);
// The CSV columns of verdict_row_json's keys, without the counterexample.
std::vector<std::string> verdict_csv_columns();

}  // namespace gpuwcrt::app
