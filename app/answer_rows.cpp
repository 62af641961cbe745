#include "app/answer_rows.hpp"

#include "app/verification.hpp"
#include "report/context/output_context.hpp"
#include "report/provenance.hpp"

namespace gpuwcrt::app {

std::string by_text(const WcrtAnswer& a) {
    std::string by = a.lower_by == Provenance::none ? "-" : provenance_text(a.lower_by);
    if (a.upper_by != Provenance::none && a.upper_by != a.lower_by) by += " / " + provenance_text(a.upper_by);
    return by;
}

std::optional<Time> deadline_margin(const Workload& w, const WcrtAnswer& a) {
    const std::optional<Time>& deadline = w.ops[a.op].deadline;
    if (!deadline || !a.upper) return std::nullopt;
    return *deadline - *a.upper;
}

std::optional<Time> certified_margin(const CertifyAnswer& a) {
    if (a.verdict != Verdict::certified || !a.upper) return std::nullopt;
    return a.bound - *a.upper;
}

TextWithTimes certified_margin_text(const CertifyAnswer& a) {
    const std::optional<Time> m = certified_margin(a);
    if (!m) return TextWithTimes("-");
    return TextWithTimes(a.status == WcrtStatus::exact ? "" : "≥ ").add(*m, Rounding::down);
}

std::string met_text(const Workload& w, const WcrtAnswer& a) {
    const std::optional<Time>& deadline = w.ops[a.op].deadline;
    const std::optional<bool> met = deadline_met(deadline, a.lower, a.upper);
    return !deadline ? "-" : !met ? "?" : *met ? "yes" : "MISSED";
}

Json answer_row_json(const Workload& w, const WcrtAnswer& a, const Json& middle) {
    const Operation& op = w.ops[a.op];
    Json j = {{"name", op.name},
              {"kind", op.is_kernel() ? "kernel" : "copy"},
              {"stream", w.streams[op.stream].name},
              {"wcrt", time_or_null(a.lower)},
              {"status", to_string(a.status)},
              {"upper_bound", time_or_null(a.upper)}};
    for (auto it = middle.begin(); it != middle.end(); ++it) j[it.key()] = *it;
    if (a.status == WcrtStatus::unknown) j["unknown_reason"] = a.unknown_reason;
    j["lower_bound"] = time_or_null(a.lower);  // = wcrt: named for scripts that read bounds
    j["lower_by"] = provenance_json(a.lower_by);
    j["upper_by"] = provenance_json(a.upper_by);
    add_deadline(j, op.deadline, deadline_met(op.deadline, a.lower, a.upper));
    j["margin"] = time_or_null(deadline_margin(w, a));
    return j;
}

std::vector<std::string> answer_csv_columns(const std::vector<std::string>& after) {
    std::vector<std::string> out{"operation", "kind",        "stream",   "wcrt",     "status",       "lower_bound",
                                 "lower_by",  "upper_bound", "upper_by", "deadline", "deadline_met", "margin"};
    out.insert(out.end(), after.begin(), after.end());
    out.push_back("unknown_reason");
    return out;
}

}  // namespace gpuwcrt::app
