#include "solver/block/answer_merge.hpp"

namespace gpuwcrt {

void absorb(const Workload& w, WcrtAnswer& into, const WcrtAnswer& from, const std::string& engine) {
    const std::string by = from.lower_by.empty() ? engine : from.lower_by;
    if (from.wcrt && (!into.wcrt || *from.wcrt > *into.wcrt)) {
        into.wcrt = from.wcrt;
        into.witness = from.witness;
        into.lower_by = by;
    }
    if (from.upper_bound && (!into.upper_bound || *from.upper_bound < *into.upper_bound)) {
        into.upper_bound = from.upper_bound;
        into.upper_by = from.upper_by.empty() ? engine : from.upper_by;
    }
    if (into.wcrt && into.upper_bound && *into.wcrt > *into.upper_bound)
        throw ReplayMismatch("engines disagree on '" + w.ops[into.op].name + "': a replayed scenario gives " +
                             exact_string(*into.wcrt) + " (" + into.lower_by + "), above the upper bound " +
                             exact_string(*into.upper_bound) + " proven by " + into.upper_by);
    const bool exact = into.wcrt && into.upper_bound && *into.wcrt == *into.upper_bound;
    into.status = exact ? WcrtStatus::exact : WcrtStatus::unknown;
    if (exact) into.unknown_reason.clear();
    else if (!from.unknown_reason.empty()) into.unknown_reason = from.unknown_reason;
}

CertifyAnswer verdict_from(const Workload& w, const WcrtAnswer& a, const Time& bound) {
    CertifyAnswer c;
    c.op = a.op;
    c.bound = bound;
    c.upper_bound = a.upper_bound;
    c.upper_by = a.upper_by;
    c.lower_bound = a.wcrt;
    c.lower_by = a.lower_by;
    if (a.upper_bound && *a.upper_bound <= bound) {
        c.verdict = Verdict::certified;
        if (a.status != WcrtStatus::exact && a.upper_by == "busy-time bound") c.busy_time_bound = a.upper_bound;
    } else if (a.wcrt && *a.wcrt > bound && a.witness) {
        replay_witness(w, *a.witness, a.op, *a.wcrt);
        c.verdict = Verdict::refuted;
        c.counterexample = a.witness;
        c.response = a.wcrt;
    } else {
        c.verdict = Verdict::unknown;
        c.unknown_reason = a.unknown_reason.empty() ? "incomplete" : a.unknown_reason;
    }
    return c;
}

}  // namespace gpuwcrt
