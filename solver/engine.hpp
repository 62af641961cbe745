#pragma once
// One interface for the block-level WCRT engines of `wcrt`, `certify` and `rta-check`
// (--engine, docs/theory/verification-engines.md): each engine is one class, found by name in
// solver/registry.hpp, and answers per operation a replayed lower bound with its witness and a
// proven upper bound, named with the engine that gave each (WcrtAnswer::lower_by / upper_by).
// `auto` is a chain of the others built on the same interface (solver/block/plan/auto_engine.hpp).
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bounds/answer.hpp"
#include "bounds/engine_options.hpp"
#include "bounds/engine_stats.hpp"
#include "common/budget.hpp"
#include "common/progress.hpp"
#include "solver/frames/frames_run.hpp"

namespace gpuwcrt {

struct EngineRequest {
    const Workload& workload;
    std::vector<int> ops;   // the operations asked for (others may be answered on the way)
    EngineOptions options;  // policy, encoding, threads, …; the time comes from the Budget
    // When an operation needs no further work (a chain stops pursuing it); empty: once exact.
    std::function<bool(const WcrtAnswer&)> settled;
    ProgressSink progress;
    // A chain waiting on this run (auto's exact step); engines that store no states ignore it.
    StatesSignal head_start = {};
};

// How a report shows one counter of EngineStats: not at all, in JSON only, in JSON and in the
// text line when it is above zero, or in both always.
enum class Shown { no, json, nonzero, yes };
struct StatsShown {
    Shown scenarios = Shown::no, solver_checks = Shown::no, abstract_states = Shown::no;
    bool steps = false;  // the chain's step lines
};

struct EngineRun {
    std::vector<WcrtAnswer> answers;  // per operation, indexed like Workload::ops
    EngineStats stats;                // with the exact engine's counters when it ran
    bool complete = false;            // nothing stopped early (timeout, memory, a cut)
    std::vector<std::string> steps;   // a chain: what ran, one line each
    StatsShown shown;                 // which counters this engine measures
    // The arguments the run's upper bounds rest on, one sentence each, for the reports (the
    // all-time engine's closures, steady state, exploration, busy window).
    std::vector<std::string> arguments;
    // Over periodic or sporadic streams: what the all-time engine used, with the unrolled frames
    // its witnesses are scenarios of (WcrtAnswer::frame names the witnessed frame).
    std::optional<FramesRun> frames;
};

class Engine {
public:
    virtual ~Engine() = default;
    virtual std::string_view name() const = 0;
    // Who its answers name as having proved a bound; none for a chain, which names its links.
    virtual Provenance provenance() const { return Provenance::none; }
    // Before any work: the refusal (InputError, exit 3) of a feature the engine cannot range
    // over, where it can tell without running. Most engines refuse inside run().
    virtual void check_scope(const Workload&) const {}
    // Whether its answers hold for workloads with `wait` (docs/theory/semantics.md §9); one that does
    // not is refused them by require_engine_scope.
    virtual bool ranges_over_wait() const { return false; }
    // Whether it analyses periodic and sporadic streams, for all time; one that does not (every
    // engine of one frame) is refused them by require_engine_scope.
    virtual bool ranges_over_frames() const { return false; }
    // Whether its answers hold under the time slices of two or more GPU contexts
    // (docs/theory/semantics.md §10); one that does not is refused them by require_engine_scope.
    virtual bool ranges_over_contexts() const { return false; }
    // Throws InputError when the engine does not cover the workload.
    virtual EngineRun run(const EngineRequest& request, const Budget& budget) const = 0;
    // The counters this engine measures, as the reports show them.
    virtual StatsShown stats_shown() const = 0;
    // An engine that decides a bound directly rather than through the WCRT (SMT: smt_certify)
    // returns the question for one operation, prepared for this workload (its refusal thrown
    // here); the others return an empty function and certify from run()'s answers.
    using BoundQuestion = std::function<CertifyAnswer(int op, const Time& bound, const Budget&, EngineStats&)>;
    virtual BoundQuestion bound_question(const Workload&, const EngineOptions&, const ProgressSink&) const {
        return {};
    }
};

// Before any work, what every command that runs an engine checks: no periodic or sporadic
// stream unless the engine ranges over frames, no `wait` unless it ranges over it, no two GPU
// contexts unless it ranges over contexts, then the
// engine's own check_scope. Throws InputError (exit 3) naming the engine and the feature.
void require_engine_scope(const Engine& engine, const Workload& w, const std::string& command);

// A single engine's answers carry its name; an undecided answer's upper bound from the
// busy-time argument (SMT, enumeration) is named after that argument.
void name_answers(std::vector<WcrtAnswer>& answers, Provenance engine, bool busy_time_upper);

// Wall clock since t0 as "1.23 s", from integer milliseconds.
std::string seconds_since(Budget::Clock::time_point t0);

struct CertifyRun {
    std::vector<CertifyAnswer> verdicts;  // in the order of `bounds`
    EngineRun run;
};

// `certify`: each operation's bound certified, refuted or unknown. An engine with a
// bound_question asks it per operation; the others run once on these operations (a chain
// settled once the verdict is known, a single engine as `wcrt` runs it), and the verdicts
// follow from the answers (verdict_from).
// The verdicts' counterexamples follow the request's placement policy (require_policy_placement).
CertifyRun certify_bounds(const Engine& engine, EngineRequest request, const std::map<int, Time>& bounds,
                          const Budget& budget);

// For the progress line (RunCounters): of the operations `ops` (the open ones of a run that
// counts RunCounters::operations in all), how many `settled` says are decided (empty: exact),
// and the open one with the largest proven upper bound, with its bounds.
void publish_progress(const Workload& w, const std::vector<WcrtAnswer>& answers, const std::vector<int>& ops,
                      const std::function<bool(const WcrtAnswer&)>& settled, RunCounters& counters);

// Throws ReplayMismatch when some witness of `run` places a block where the fixed placement
// policy `policy` would not (sim/witness.hpp, require_policy_placement): a check on every
// engine's witnesses, whichever engine found them.
void require_policy_witnesses(const Workload& w, Policy policy, const EngineRun& run);

// The workload `run`'s witnesses are scenarios of: the unrolled frames over periodic streams, else `w`.
const Workload& witnessed_workload(const Workload& w, const EngineRun& run);

}  // namespace gpuwcrt
