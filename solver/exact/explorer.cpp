#include "solver/exact/explorer.hpp"

#include <memory>
#include <new>
#include <optional>

#include "bounds/engine_options.hpp"
#include "bounds/engine_stats.hpp"
#include "sim/search/best_scenarios.hpp"
#include "solver/exact/level_search.hpp"
#include "solver/exact/records.hpp"
#include "solver/exact/seeding.hpp"
#ifdef GPUWCRT_HAVE_MPI
#include "solver/exact/distributed/comm.hpp"
#include "solver/exact/distributed/search.hpp"
#endif

namespace gpuwcrt::exact {
namespace {

using Clock = std::chrono::steady_clock;

LevelSearchShape shape_of(const Problem& p, const EngineOptions& o, const ExactSearchOptions& l) {
    LevelSearchShape s;
    s.threads = worker_threads(o.threads);
    s.max_states = l.max_states;
    s.prune = l.prune;
    s.beam = l.beam;
    s.beam_level = l.beam_level;
    s.prune = prunes(p, s);
    return s;
}

class ExplicitSearch {
public:
    ExplicitSearch(const Workload& w, const EngineOptions& o, const Budget& budget, const ExactSearchOptions& l,
                   const ProgressSink& pr, const StatesSignal& stored)
        : p_(make_problem(w, o.policy)),
          o_(o),
          budget_(budget),
          limits_(l),
          stored_(stored),
          t0_(Clock::now()),
          shape_(shape_of(p_, o, l)),
          one_process_(pr),
          search_(p_, budget, shape_, one_process_, stored),
          seed_(w) {}

    ExactResult run() {
        ExactResult res;
        std::optional<StopReason> stop;
        try {
            explore(shape_.prune && limits_.seed_beam > 0 ? seed() : Seeds{});
            stop = search_.stopped();
        } catch (const std::bad_alloc&) {
            stop = StopReason::memory;
        }
        search_.free_levels();  // give the memory back before the witnesses are rebuilt
        ExactStats& stats = search_.stats();
        res.complete = !stop && stats.beam_cut == 0;
        const std::string reason = stop ? to_string(*stop) : stats.beam_cut > 0 ? "beam" : "";
        stats.states = search_.stored();
        res.wcrt.resize(p_.n);
        const std::vector<Best>& best = search_.best();
        for (int op = 0; op < p_.n; ++op)
            res.wcrt[op] =
                exact_answer(p_, op, reason, best[op], seed_, [&] { return search_.records().path(best[op].parent); });
        stats.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0_);
        stats.threads = shape_.threads;
        res.stats = stats;
        return res;
    }

    // The largest response of each operation (in ticks) and the step that produced it.
    const std::vector<Best>& best() { return search_.best(); }

private:
    // The seeding beam run (seed_responses): its answers are kept in seed_.
    Seeds seed() {
        Seeds seeds = seed_responses(*p_.w, o_, budget_, limits_.seed_beam, stored_, seed_);
        search_.stats().seed_elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0_);
        return seeds;
    }

    void explore(const Seeds& seeds) {
        search_.start(seeds);
        search_.run();
    }

    Problem p_;
    EngineOptions o_;
    Budget budget_;
    ExactSearchOptions limits_;
    StatesSignal stored_;
    Clock::time_point t0_;
    LevelSearchShape shape_;
    OneProcess one_process_;
    LevelSearch search_;
    search::BestScenarios seed_;
};

}  // namespace

// The largest responses found by a beam run (cheap, and usually within a unit or two of the
// WCRT): the drain bound prunes against them from the first level on. The beam run is this
// engine's strategy of the lower-bound search (sim/search/best_scenarios.hpp): its replayed
// answers are kept in `kept`.
Seeds seed_responses(const Workload& w, const EngineOptions& o, const Budget& budget, int beam,
                     const StatesSignal& stored, search::BestScenarios& kept) {
    ExactSearchOptions limits;
    limits.beam = beam;
    limits.beam_level = 20000;
    limits.prune = false;
    ExplicitSearch s(w, o, budget, limits, {}, stored);
    std::vector<WcrtAnswer> found = s.run().wcrt;
    Seeds seeds{std::vector<char>(w.ops.size(), 0), std::vector<std::int64_t>(w.ops.size(), 0)};
    for (std::size_t op = 0; op < w.ops.size(); ++op) {
        if (!s.best()[op].found) continue;
        seeds.found[op] = 1;
        seeds.response[op] = s.best()[op].response;
        kept.keep(static_cast<int>(op), *found[op].lower,
                  std::make_shared<const WitnessScenario>(std::move(*found[op].witness)));
    }
    return seeds;
}

}  // namespace gpuwcrt::exact

namespace gpuwcrt {

ExactResult exact_wcrt(const Workload& w, const EngineOptions& o, const Budget& budget,
                       const ExactSearchOptions& options, const ProgressSink& progress, const StatesSignal& stored) {
    // The progress line's name for what runs, unless a plan has named its step already.
    if (!*budget.counters().phase.load()) budget.counters().phase = "exact search";
#ifdef GPUWCRT_HAVE_MPI
    // Under mpirun with more than one process: the same search spread over them (docs/theory/distributed.md).
    if (options.beam == 0 && !options.one_process && exact::distributed::spread() &&
        exact::distributed::process_rank() == 0)
        if (auto r = exact::distributed::exact_wcrt_across_processes(w, o, budget, options, progress, stored))
            return *r;
#endif
    exact::ExplicitSearch s(w, o, budget, options, progress, stored);
    return s.run();
}

}  // namespace gpuwcrt
