#pragma once
// What every engine answers about one quantity it bounds, in one type, BoundedAnswer: a bound
// reached by a replayed witness, a proven bound on the other side, who gave each, the status and
// the reason. The block-level engines (bounds, exact, smt, enumerate, and the auto chain of them)
// answer one WcrtAnswer per operation (the all-time engine one per operation of the file, over
// all its frames); the RTA over orders one per kernel, the warp check one per goal. Answers are
// combined by the functions below alone: meet (absorb), join over parts, settle for the status.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/witness.hpp"

namespace gpuwcrt {

enum class WcrtStatus { exact, unknown };
enum class Verdict { certified, refuted, unknown };

// Who proved a bound: an engine (solver/registry.hpp) or an argument that needs no search; for
// the RTA over launch orders, its search or the reference RTA on the file order (one of the
// orders). How reports name it is report/provenance.hpp's alone.
enum class Provenance {
    none,
    bounds,
    exact,
    smt,
    enumerate,
    explicit_state,
    interference,
    busy_time,
    rta_orders,
    rta_file_order,
    frame_search,        // the scenario search over the frames of a periodic workload (solver/frames/)
    steady_state,        // the interference bound's steady state over hyperperiods (bounds/frames/steady_state.hpp)
    busy_window,         // the interference bound on the frames of one busy period (bounds/frames/busy_window.hpp)
    frame_exploration,   // the exact engine's states over a moving window of hyperperiods (solver/frames/)
    cpu_oblivious,       // CPU response-time analysis, suspensions as execution (bounds/cpu/cpu_rta.hpp)
    cpu_jitter,          // CPU response-time analysis, interferers' suspensions as release jitter (idem)
    cpu_execution,       // a job at its longest executions, behind the jobs released with it (bounds/cpu/)
    sliced_busy_window,  // a busy window per time-sliced context (bounds/frames/sliced_busy_window.hpp)
    cpu_joint_run        // a replayed run of the CPU tasks and the GPU frames together (sim/cpu/joint_run.hpp)
};

std::string to_string(WcrtStatus s);
std::string to_string(Verdict v);

// With block-time intervals or issue windows the SMT engine and enumeration range over the
// grid (multiples of `grid`): their maximum is a replayed lower bound, not the worst case over
// real values (docs/theory/encoding.md, "Intervals and windows: the grid"). The unknown_reason they
// give when no proven upper bound meets it, naming the grid ("maximum on grid 1/2, …").
std::string grid_maximum_reason(const Time& grid);
// A certify run that found no grid scenario above the bound: not a proof for real values.
std::string grid_certify_reason(const Time& grid);

// The answer about one quantity: for a maximum (a response time, a kernel's RTA over launch
// orders, the warp worst case) the witness gives `lower` and a proof `upper`; for a minimum (the
// warp best case) the roles swap. Exact: both hold the value (set_exact).
template <class Value, class Witness>
struct BoundedAnswer {
    WcrtStatus status = WcrtStatus::unknown;
    std::optional<Value> lower, upper;  // either may be missing while the answer is unknown
    std::optional<Witness> witness;     // replayed: it reaches the witnessed bound
    // Which engine or argument gave `lower` and which `upper` (report/provenance.hpp names them).
    Provenance lower_by = Provenance::none, upper_by = Provenance::none;
    std::string unknown_reason;  // "timeout", "incomplete", …

    // The value when it is known exactly.
    std::optional<Value> exact() const { return status == WcrtStatus::exact ? lower : std::nullopt; }
    // Both bounds set to `v`, given by `by`.
    void set_exact(const Value& v, Provenance by) {
        status = WcrtStatus::exact;
        lower = upper = v;
        lower_by = upper_by = by;
        unknown_reason.clear();
    }
};

// One operation's response time. Exact: `lower` is the WCRT. Unknown: `lower` is the largest
// response found so far, if any, and `upper` the best proven bound, e.g. the busy-time bound
// (BlockProblem::response_upper_bound) when the workload is in the SMT engine's scope. `auto`
// combines engines (absorb); a single engine names itself.
struct WcrtAnswer : BoundedAnswer<Time, WitnessScenario> {
    int op = 0;
    // Over periodic or sporadic streams (the all-time engine, solver/frames/): the frame whose
    // replayed response is `lower`; `witness` is then a scenario of the unrolled frames.
    std::optional<std::int64_t> frame;
};

// certify: the answer about one operation (`lower` the worst replayed response found, when the
// engine has one: with an unknown verdict the bound lies between `lower` and `upper`;
// certified iff the upper bound is at most `bound`), and the verdict on `bound`.
struct CertifyAnswer : WcrtAnswer {
    Time bound;
    Verdict verdict = Verdict::unknown;
    std::optional<WitnessScenario> counterexample;  // replayed: its response exceeds `bound`
    std::optional<Time> response;                   // of the counterexample
    // Certified without a search because the busy-time bound is at most `bound`: this bound.
    std::optional<Time> busy_time_bound;
};

// A replayed lower bound above a proven upper bound: one of the engines or arguments that gave
// them is wrong, and no verdict may be drawn from either. Reports name both (report/provenance.hpp).
class BoundsContradict : public ReplayMismatch {
public:
    BoundsContradict(const std::string& what, Provenance lower, Provenance upper)
        : ReplayMismatch(what), lower_by(lower), upper_by(upper) {}
    Provenance lower_by, upper_by;
};

// A bound in a message: the exact rational of a time, the integer of a count of cycles.
inline std::string bound_text(const Time& t) { return exact_string(t); }
inline std::string bound_text(long long cycles) { return std::to_string(cycles); }

// The status from the bounds alone: exact when they meet (the reason cleared), else unknown,
// with `reason` when one is given (else the reason it had).
template <class Value, class Witness>
void settle(BoundedAnswer<Value, Witness>& a, const std::string& reason) {
    const bool exact = a.lower && a.upper && *a.lower == *a.upper;
    a.status = exact ? WcrtStatus::exact : WcrtStatus::unknown;
    if (exact) a.unknown_reason.clear();
    else if (!reason.empty()) a.unknown_reason = reason;
}

// The bounds of the meet of two answers about the same quantity, both true: takes from `from`
// what improves `into`, a larger lower bound with its witness, a smaller upper bound, each named
// by `from` or else by `engine`. The status and reason are left to the caller (meet, or a
// check that lets only an engine decide).
template <class Value, class Witness>
void tighten(BoundedAnswer<Value, Witness>& into, const BoundedAnswer<Value, Witness>& from, Provenance engine) {
    if (from.lower && (!into.lower || *from.lower > *into.lower)) {
        into.lower = from.lower;
        into.witness = from.witness;
        into.lower_by = from.lower_by == Provenance::none ? engine : from.lower_by;
    }
    if (from.upper && (!into.upper || *from.upper < *into.upper)) {
        into.upper = from.upper;
        into.upper_by = from.upper_by == Provenance::none ? engine : from.upper_by;
    }
}

// The meet: tighten, then exact exactly when the bounds meet, else `from`'s reason when it gives
// one. Throws BoundsContradict, naming `what`, when a lower bound exceeds an upper bound.
template <class Value, class Witness>
void meet(BoundedAnswer<Value, Witness>& into, const BoundedAnswer<Value, Witness>& from, Provenance engine,
          const std::string& what) {
    tighten(into, from, engine);
    if (into.lower && into.upper && *into.lower > *into.upper)
        throw BoundsContradict("engines disagree on '" + what + "': a replayed scenario gives " +
                                   bound_text(*into.lower) + ", above the proven upper bound " +
                                   bound_text(*into.upper),
                               into.lower_by, into.upper_by);
    settle(into, from.unknown_reason);
}

// The join of the answers about the parts of one quantity, its maximum over them (the frames of
// one operation of the file): the largest lower bound with its witness and the largest upper
// bound, each with who gave it. A part without an upper bound leaves none only where the caller
// says so (a frame that is not bounded is not joined).
template <class Value, class Witness>
void join(BoundedAnswer<Value, Witness>& into, const BoundedAnswer<Value, Witness>& part) {
    if (part.lower && (!into.lower || *part.lower > *into.lower)) {
        into.lower = part.lower;
        into.witness = part.witness;
        into.lower_by = part.lower_by;
    }
    if (part.upper && (!into.upper || *part.upper > *into.upper)) {
        into.upper = part.upper;
        into.upper_by = part.upper_by;
    }
}

// The one merge of answers about the same operation (meet, named by the operation).
void absorb(const Workload& w, WcrtAnswer& into, const WcrtAnswer& from, Provenance engine);

// One answer per operation of `w`, indexed like w.ops, each unknown with nothing proven yet.
std::vector<WcrtAnswer> unknown_answers(const Workload& w);

// certified when the upper bound is at most `bound`; refuted when the replayed lower bound
// exceeds it (the witness is replayed again here, before it becomes a counterexample); else
// unknown, with the answer's reason. busy_time_bound is set when that argument certified it.
CertifyAnswer verdict_from(const Workload& w, const WcrtAnswer& a, const Time& bound);
// The same where the witness is a scenario of `witnessed` (the unrolled frames), in which it
// gives operation `witnessed_op` the response `a.lower`.
CertifyAnswer verdict_from(const Workload& witnessed, int witnessed_op, const WcrtAnswer& a, const Time& bound);

}  // namespace gpuwcrt
