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

// Every key an answer row may hold. write_answer_row_key writes each, the layouts below order them.
enum class RowKey {
    name,
    kind,
    stream,
    wcrt,
    status,
    lower_bound,
    lower_by,
    upper_bound,
    upper_by,
    deadline,  // and "deadline_met"
    margin,
    margin_exact,
    bound,
    verdict,
    counterexample,  // "response" and "counterexample"
    busy_time_bound,
    unknown_reason,          // when the answer is unknown
    verdict_unknown_reason,  // when the verdict is
    own,                     // the command's own keys
};

// The key's name, the CSV column's (the JSON's "name" is the CSV's "operation").
std::string answer_row_column(RowKey k) {
    static const char* const names[] = {"operation",       "kind",           "stream",         "wcrt",     "status",
                                        "lower_bound",     "lower_by",       "upper_bound",    "upper_by", "deadline",
                                        "margin",          "margin_exact",   "bound",          "verdict",  "response",
                                        "busy_time_bound", "unknown_reason", "unknown_reason", ""};
    return names[static_cast<int>(k)];
}

struct AnswerRowSource {
    const Workload& w;
    const WcrtAnswer& a;
    const CertifyAnswer* v;  // certify's verdict on the operation's bound
    const Json& own;
};

// certify's margin is the bound's, wcrt's the deadline's.
std::optional<Time> answer_row_margin(const AnswerRowSource& s) {
    return s.v ? certified_margin(*s.v) : deadline_margin(s.w, s.a);
}

void write_answer_row_key(Json& j, RowKey k, const AnswerRowSource& s) {
    const Operation& op = s.w.ops[s.a.op];
    const std::string key = answer_row_column(k);
    switch (k) {
        case RowKey::name:
            j["name"] = op.name;
            return;
        case RowKey::kind:
            j[key] = op.is_kernel() ? "kernel" : "copy";
            return;
        case RowKey::stream:
            j[key] = s.w.streams[op.stream].name;
            return;
        case RowKey::wcrt:
        case RowKey::lower_bound:
            j[key] = time_or_null(s.a.lower);
            return;  // the same: named for scripts that read bounds
        case RowKey::status:
            j[key] = to_string(s.a.status);
            return;
        case RowKey::lower_by:
            j[key] = provenance_json(s.a.lower_by);
            return;
        case RowKey::upper_bound:
            j[key] = time_or_null(s.a.upper);
            return;
        case RowKey::upper_by:
            j[key] = provenance_json(s.a.upper_by);
            return;
        case RowKey::deadline:
            add_deadline(j, op.deadline, deadline_met(op.deadline, s.a.lower, s.a.upper));
            return;
        case RowKey::margin:
            j[key] = time_or_null(answer_row_margin(s));
            return;
        case RowKey::margin_exact:
            j[key] = answer_row_margin(s) ? Json(s.a.status == WcrtStatus::exact) : Json(nullptr);
            return;
        case RowKey::bound:
            j[key] = exact_string(s.v->bound);
            return;
        case RowKey::verdict:
            j[key] = to_string(s.v->verdict);
            return;
        case RowKey::counterexample:
            if (!s.v->counterexample) return;
            j["response"] = exact_string(*s.v->response);
            j["counterexample"] = witness_json(s.w, *s.v->counterexample);
            return;
        case RowKey::busy_time_bound:
            if (s.v->busy_time_bound) j[key] = exact_string(*s.v->busy_time_bound);
            return;
        case RowKey::unknown_reason:
            if (s.a.status == WcrtStatus::unknown) j[key] = s.a.unknown_reason;
            return;
        case RowKey::verdict_unknown_reason:
            if (s.v->verdict == Verdict::unknown) j[key] = s.v->unknown_reason;
            return;
        case RowKey::own:
            for (auto it = s.own.begin(); it != s.own.end(); ++it) j[it.key()] = *it;
            return;
    }
}

Json layout_row_json(const std::vector<RowKey>& layout, const AnswerRowSource& s) {
    Json j = Json::object();
    for (const RowKey k : layout) write_answer_row_key(j, k, s);
    return j;
}

std::vector<std::string> layout_columns(const std::vector<RowKey>& layout) {
    std::vector<std::string> out;
    for (const RowKey k : layout) {
        out.push_back(answer_row_column(k));
        if (k == RowKey::deadline) out.push_back("deadline_met");
    }
    return out;
}

}  // namespace

Json answer_row_json(const Workload& w, const WcrtAnswer& a, const Json& own_keys, const CertifyAnswer* v) {
    using enum RowKey;
    const AnswerRowSource s{w, a, v, own_keys};
    Json j = layout_row_json({name, kind, stream, wcrt, status, upper_bound, own, unknown_reason, lower_bound, lower_by,
                              upper_by, deadline, margin},
                             s);
    if (v) {
        write_answer_row_key(j, bound, s);
        write_answer_row_key(j, verdict, s);
    }
    return j;
}

Json verdict_row_json(const Workload& w, const CertifyAnswer& v) {
    using enum RowKey;
    const Json none = Json::object();
    return layout_row_json({name, kind, stream, bound, verdict, counterexample, verdict_unknown_reason, busy_time_bound,
                            margin, margin_exact, upper_bound, upper_by, lower_bound, lower_by, deadline},
                           {w, v, &v, none});
}

std::vector<std::string> answer_csv_columns(const std::vector<std::string>& after) {
    using enum RowKey;
    std::vector<std::string> out = layout_columns(
        {name, kind, stream, wcrt, status, lower_bound, lower_by, upper_bound, upper_by, deadline, margin});
    out.insert(out.end(), after.begin(), after.end());
    out.push_back(answer_row_column(unknown_reason));
    return out;
}

std::vector<std::string> verdict_csv_columns() {
    using enum RowKey;
    return layout_columns({name, kind, stream, bound, verdict, counterexample, lower_bound, lower_by, upper_bound,
                           upper_by, margin, margin_exact, deadline, verdict_unknown_reason});
}

}  // namespace gpuwcrt::app
