#include "bounds/answer.hpp"

namespace gpuwcrt {

std::string to_string(WcrtStatus s) { return s == WcrtStatus::exact ? "exact" : "unknown"; }

std::string to_string(Verdict v) {
    switch (v) {
        case Verdict::certified:
            return "certified";
        case Verdict::refuted:
            return "refuted";
        case Verdict::unknown:
            return "unknown";
    }
    return "?";
}

std::string grid_maximum_reason(const Time& grid) {
    return "maximum on grid " + exact_string(grid) + ": a lower bound, times between grid points may give more";
}

std::string grid_certify_reason(const Time& grid) {
    return "no scenario on grid " + exact_string(grid) + " exceeds the bound, times between grid points may";
}

std::vector<WcrtAnswer> unknown_answers(const Workload& w) {
    std::vector<WcrtAnswer> out(w.ops.size());
    for (std::size_t i = 0; i < out.size(); ++i) out[i].op = static_cast<int>(i);
    return out;
}

void absorb(const Workload& w, WcrtAnswer& into, const WcrtAnswer& from, Provenance engine) {
    const bool lower = from.lower && (!into.lower || *from.lower > *into.lower);
    meet(into, from, engine, w.ops[into.op].name);
    if (lower) into.frame = from.frame;
}

CertifyAnswer verdict_from(const Workload& w, const WcrtAnswer& a, const Time& bound) {
    return verdict_from(w, a.op, a, bound);
}

CertifyAnswer verdict_from(const Workload& witnessed, int witnessed_op, const WcrtAnswer& a, const Time& bound) {
    CertifyAnswer c;
    static_cast<WcrtAnswer&>(c) = a;
    c.unknown_reason.clear();
    c.bound = bound;
    if (a.upper && *a.upper <= bound) {
        c.verdict = Verdict::certified;
        if (a.status != WcrtStatus::exact && a.upper_by == Provenance::busy_time) c.busy_time_bound = a.upper;
    } else if (a.lower && *a.lower > bound && a.witness) {
        replay_witness(witnessed, *a.witness, witnessed_op, *a.lower);
        c.verdict = Verdict::refuted;
        c.counterexample = a.witness;
        c.response = a.lower;
    } else {
        c.verdict = Verdict::unknown;
        c.unknown_reason = a.unknown_reason.empty() ? "incomplete" : a.unknown_reason;
    }
    return c;
}

}  // namespace gpuwcrt
