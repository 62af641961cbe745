#pragma once
// The plan of `--engine auto` (docs/theory/verification-engines.md, "auto: the plan"): which engines
// run, in which order and with which work limit, chosen from cheap estimates of this workload
// before any search. Engines slot in by their estimate, not by a fixed order: a bound by a
// formula runs first, then a step that can decide operations on its own and is estimated cheap;
// the others follow by kind (an upper-bound pass before lower-bound searches) and then by
// estimated cost, the busy-time fallback last. Every limit of a search is a work limit (states),
// never a share of the wall clock, so that the same input and options give the same answers
// whatever the machine's load; only --timeout and --max-memory stop a step early, and the
// output then says which step stopped.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/workload.hpp"

namespace gpuwcrt {

struct PlanStep {
    // The engine, by its name in solver/registry.hpp; its link is made there (plan_link).
    std::string_view engine;
    // Alone it makes operations exact (point times): the plan stops once every one is decided.
    bool decisive = false;
    // Can prove upper bounds for every operation (the abstraction).
    bool upper_bounds = false;
    std::uint64_t estimate = 0;  // the step's estimated states (saturating), what orders the plan
    long long max_states = 0;    // exact: the state limit of this step (0: none)
    bool quick = false;          // bounds: the quick pass (few states per key)
    std::string why;             // one line for the steps of the output; empty: none
    // exact: the quick abstraction pass runs beside it once it has a head start (auto_engine).
    bool bounds_beside = false;
    // A bound by a formula, no search (its estimate: operations squared, the interference
    // bound's cost per sweep): it runs first, and the deadline stopping it stops no search.
    bool formula = false;
    // The busy-time bound: it runs last, after the deadline as well, and only for the operations
    // every other step left without an upper bound, so that it never takes the place of a
    // tighter bound's engine.
    bool fallback = false;
};

// Sets of determined operations the exact search can meet: the product over streams of
// (operations in the stream + 1), times the product of the grid values of intervals and
// windows; saturates at 2^62. The explicit search's levels are such sets, each with a few
// states (SM occupancy) in the fixed-time pipelines and bench workloads measured
// (bench/RESULTS.md, "plan").
std::uint64_t exact_set_estimate(const Workload& w);

// Block-time intervals or issue windows anywhere.
bool has_ranges(const Workload& w);

// Estimated sets at or below which the exact search runs first, without a state limit: a
// state limit would stop a search that the exact engine alone finishes (bench/wcrt n = 10
// stores 2.9 M states for 1 024 estimated sets), and only --timeout or --max-memory stop it.
inline constexpr std::uint64_t exact_first_sets = std::uint64_t(1) << 20;

// The ordered steps for `w`: the interference bound first, the busy-time bound (on the SMT
// engine's problem) last. `exact_in_scope` / `smt_in_scope`: the engines did not refuse it.
std::vector<PlanStep> make_plan(const Workload& w, bool exact_in_scope, bool smt_in_scope);

}  // namespace gpuwcrt
