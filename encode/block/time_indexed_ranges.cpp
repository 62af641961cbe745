// Block-time (and copy-duration) intervals and issue windows in the time-indexed encoding:
// every duration and every window instant is a choice among the multiples of the grid 1/scale
// inside its range (BlockProblem). These are the scenario choices of docs/theory/semantics.md §5 restricted to the
// grid; docs/theory/encoding.md ("Intervals and windows: the grid") proves that the encoding's models
// are exactly the grid scenarios, and why the grid maximum is only a lower bound of the worst
// case over real values. The simulator's counterpart is Scenario::block_time / issue_at.
#include "encode/block/time_indexed_encoding.hpp"

namespace gpuwcrt {
namespace {

std::string name(const char* what, int o, std::int64_t j, std::int64_t x) {
    return std::string(what) + "_" + std::to_string(o) + "_" + std::to_string(j) + "_" + std::to_string(x);
}

}  // namespace

z3::expr TimeIndexedEncoding::timed_started(int o, std::int64_t j, std::int64_t t) const {
    const int k = p_.kernel_of_op[o];
    return k >= 0 ? started({k, j}, t) : copy_started(o, t);
}

z3::expr TimeIndexedEncoding::duration_ge(int o, std::int64_t j, std::int64_t d) const {
    const std::int64_t lo = p_.duration_lo[o], hi = p_.duration[o];
    if (d <= lo) return ctx_.bool_val(true);
    if (d > hi) return ctx_.bool_val(false);
    return duration_ge_.at({o, j})[d - lo - 1];
}

// G4 / C4: a block (a copy) ends `duration` after its start; every start is by the horizon,
// so everything has ended by horizon + hi.
z3::expr TimeIndexedEncoding::ended(int o, std::int64_t j, std::int64_t t) const {
    if (!p_.duration_varies(o)) return timed_started(o, j, t - p_.duration[o]);
    const std::int64_t first = p_.issue_lb[o] + p_.duration_lo[o];
    if (t < first) return ctx_.bool_val(false);
    if (t >= p_.horizon + p_.duration[o]) return ctx_.bool_val(true);
    return ended_.at({o, j})[t - first];
}

// sim/rules.cpp predecessor_issued / seed_first_issues read Scenario::issue_at: an instant in
// the window (here: on the grid), later moved to the predecessor's issue if that is later.
z3::expr TimeIndexedEncoding::window_chosen_by(int o, std::int64_t t) const {
    const std::int64_t lo = p_.issue_value[o], hi = p_.issue_hi[o];
    if (t < lo) return ctx_.bool_val(false);
    if (t >= hi) return ctx_.bool_val(true);
    return window_by_[o][t - lo];
}

void TimeIndexedEncoding::declare_range_variables() {
    window_by_.resize(p_.ops());
    for (int o = 0; o < p_.ops(); ++o) {
        check_build(o_.budget);
        if (p_.issue_rule[o] == BlockProblem::IssueRule::at && p_.issue_hi[o] > p_.issue_value[o]) {
            auto& by = window_by_[o];  // order encoding: "the chosen instant is <= t"
            for (std::int64_t t = p_.issue_value[o]; t < p_.issue_hi[o]; ++t) {
                by.push_back(ctx_.bool_const(name("window", o, 0, t).c_str()));
                if (by.size() > 1) constraints_.push_back(z3::implies(by[by.size() - 2], by.back()));
            }
        }
        if (!p_.duration_varies(o)) continue;
        const int k = p_.kernel_of_op[o];
        const std::int64_t units = k >= 0 ? p_.blocks[k] : 1;
        const std::int64_t lo = p_.duration_lo[o], hi = p_.duration[o];
        for (std::int64_t j = 0; j < units; ++j) {
            auto& ge = duration_ge_[{o, j}];  // order encoding: "the duration is >= d"
            for (std::int64_t d = lo + 1; d <= hi; ++d) {
                ge.push_back(ctx_.bool_const(name("dur", o, j, d).c_str()));
                if (ge.size() > 1) constraints_.push_back(z3::implies(ge.back(), ge[ge.size() - 2]));
            }
            auto& end = ended_[{o, j}];
            for (std::int64_t t = p_.issue_lb[o] + lo; t < p_.horizon + hi; ++t) {
                check_build(o_.budget);
                end.push_back(ctx_.bool_const(name("end", o, j, t).c_str()));
            }
        }
    }
}

// For the chosen duration d (exactly one d in [lo, hi] has ge(d) and not ge(d + 1)), "ended by
// t" is "started by t - d". Monotone because "started" is.
void TimeIndexedEncoding::rule_durations_in_intervals() {
    for (const auto& [key, end] : ended_) {
        const auto [o, j] = key;
        const std::int64_t first = p_.issue_lb[o] + p_.duration_lo[o];
        for (std::size_t i = 0; i < end.size(); ++i) {
            check_build(o_.budget);
            const std::int64_t t = first + static_cast<std::int64_t>(i);
            for (std::int64_t d = p_.duration_lo[o]; d <= p_.duration[o]; ++d) {
                const z3::expr is_d = duration_ge(o, j, d) && !duration_ge(o, j, d + 1);
                constraints_.push_back(z3::implies(is_d, end[i] == timed_started(o, j, t - d)));
            }
        }
    }
}

std::int64_t TimeIndexedEncoding::duration_in(const z3::model& model, int o, std::int64_t j) const {
    std::int64_t d = p_.duration_lo[o];
    while (d < p_.duration[o] && model.eval(duration_ge(o, j, d + 1), true).is_true()) ++d;
    return d;
}

std::int64_t TimeIndexedEncoding::window_instant_in(const z3::model& model, int o) const {
    std::int64_t t = p_.issue_value[o];
    while (t < p_.issue_hi[o] && !model.eval(window_chosen_by(o, t), true).is_true()) ++t;
    return t;
}

}  // namespace gpuwcrt
