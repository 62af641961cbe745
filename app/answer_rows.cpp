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

namespace {

// Which question a row answers, so which one its "unknown_reason" says is open: the response
// time (wcrt; certify over all time, beside the verdict) or the verdict (certify over one frame).
enum class RowQuestion { response_time, verdict };

// Every key a row may hold, with its value; the layouts below choose and order them. A key
// the answer has no value for (a counterexample, a busy-time bound, a reason) is absent, and
// so are the keys of the verdict's own row unless the row answers the verdict.
Json answer_row_values(const Workload& w, const WcrtAnswer& a, const CertifyAnswer* v, RowQuestion question) {
    const Operation& op = w.ops[a.op];
    Json j = {{"name", op.name}, {"kind", op.is_kernel() ? "kernel" : "copy"}, {"stream", w.streams[op.stream].name}};
    j["wcrt"] = j["lower_bound"] = time_or_null(a.lower);  // the same: "lower_bound" for scripts that read bounds
    j["status"] = to_string(a.status);
    j["upper_bound"] = time_or_null(a.upper);
    j["lower_by"] = provenance_json(a.lower_by);
    j["upper_by"] = provenance_json(a.upper_by);
    add_deadline(j, op.deadline, deadline_met(op.deadline, a.lower, a.upper));
    const bool open =
        question == RowQuestion::verdict ? v->verdict == Verdict::unknown : a.status == WcrtStatus::unknown;
    if (open) j["unknown_reason"] = question == RowQuestion::verdict ? v->unknown_reason : a.unknown_reason;
    // certify's margin is the bound's, wcrt's the deadline's.
    const std::optional<Time> margin = v ? certified_margin(*v) : deadline_margin(w, a);
    j["margin"] = time_or_null(margin);
    if (!v) return j;
    j["bound"] = exact_string(v->bound);
    j["verdict"] = to_string(v->verdict);
    // Over all time the counterexample is one of the unrolled frames: the witness files show it.
    if (question != RowQuestion::verdict) return j;
    j["margin_exact"] = margin ? Json(a.status == WcrtStatus::exact) : Json(nullptr);
    if (v->counterexample) {
        j["response"] = exact_string(*v->response);
        j["counterexample"] = witness_json(w, *v->counterexample);
    }
    if (v->busy_time_bound) j["busy_time_bound"] = exact_string(*v->busy_time_bound);
    return j;
}

// The keys of `layout` that `values` holds, in its order; `own`'s keys where the layout has "".
Json layout_row_json(const Json& values, const std::vector<std::string>& layout, const Json& own) {
    Json j = Json::object();
    for (const std::string& key : layout) {
        if (key.empty()) j.update(own);
        else if (values.contains(key)) j[key] = values[key];
    }
    return j;
}

// The CSV's columns of a layout: the JSON's "name" is the CSV's "operation".
std::vector<std::string> layout_columns(std::vector<std::string> layout) {
    for (std::string& key : layout)
        if (key == "name") key = "operation";
    return layout;
}

}  // namespace

Json answer_row_json(const Workload& w, const WcrtAnswer& a, const Json& own, const CertifyAnswer* verdict) {
    std::vector<std::string> layout{"name",        "kind",     "stream",         "wcrt",        "status",
                                    "upper_bound", "",         "unknown_reason", "lower_bound", "lower_by",
                                    "upper_by",    "deadline", "deadline_met",   "margin"};
    if (verdict) layout.insert(layout.end(), {"bound", "verdict"});
    return layout_row_json(answer_row_values(w, a, verdict, RowQuestion::response_time), layout, own);
}

Json verdict_row_json(const Workload& w, const CertifyAnswer& v) {
    return layout_row_json(answer_row_values(w, v, &v, RowQuestion::verdict),
                           {"name", "kind", "stream", "bound", "verdict", "response", "counterexample",
                            "unknown_reason", "busy_time_bound", "margin", "margin_exact", "upper_bound", "upper_by",
                            "lower_bound", "lower_by", "deadline", "deadline_met"},
                           Json::object());
}

std::vector<std::string> answer_csv_columns(const std::vector<std::string>& after) {
    std::vector<std::string> out =
        layout_columns({"name", "kind", "stream", "wcrt", "status", "lower_bound", "lower_by", "upper_bound",
                        "upper_by", "deadline", "deadline_met", "margin"});
    out.insert(out.end(), after.begin(), after.end());
    out.push_back("unknown_reason");
    return out;
}

std::vector<std::string> verdict_csv_columns() {
    return layout_columns({"name", "kind", "stream", "bound", "verdict", "response", "lower_bound", "lower_by",
                           "upper_bound", "upper_by", "margin", "margin_exact", "deadline", "deadline_met",
                           "unknown_reason"});
}

}  // namespace gpuwcrt::app
