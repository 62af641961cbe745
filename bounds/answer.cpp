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

void absorb(const Workload& w, WcrtAnswer& into, const WcrtAnswer& from, Provenance engine) {
    if (from.wcrt && (!into.wcrt || *from.wcrt > *into.wcrt)) {
        into.wcrt = from.wcrt;
        into.witness = from.witness;
        into.lower_by = from.lower_by == Provenance::none ? engine : from.lower_by;
    }
    if (from.upper_bound && (!into.upper_bound || *from.upper_bound < *into.upper_bound)) {
        into.upper_bound = from.upper_bound;
        into.upper_by = from.upper_by == Provenance::none ? engine : from.upper_by;
    }
    if (into.wcrt && into.upper_bound && *into.wcrt > *into.upper_bound)
        throw BoundsContradict("engines disagree on '" + w.ops[into.op].name + "': a replayed scenario gives " +
                                   exact_string(*into.wcrt) + ", above the proven upper bound " +
                                   exact_string(*into.upper_bound),
                               into.lower_by, into.upper_by);
    const bool exact = into.wcrt && into.upper_bound && *into.wcrt == *into.upper_bound;
    into.status = exact ? WcrtStatus::exact : WcrtStatus::unknown;
    if (exact) into.unknown_reason.clear();
    else if (!from.unknown_reason.empty()) into.unknown_reason = from.unknown_reason;
}

CertifyAnswer verdict_from(const Workload& w, const WcrtAnswer& a, const Time& bound) {
    CertifyAnswer c;
    static_cast<WcrtAnswer&>(c) = a;
    c.unknown_reason.clear();
    c.bound = bound;
    if (a.upper_bound && *a.upper_bound <= bound) {
        c.verdict = Verdict::certified;
        if (a.status != WcrtStatus::exact && a.upper_by == Provenance::busy_time) c.busy_time_bound = a.upper_bound;
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
