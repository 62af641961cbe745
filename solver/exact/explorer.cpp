#include "solver/exact/explorer.hpp"

#include <memory>
#include <new>
#include <optional>
#include <queue>
#include <unordered_map>

#include "sim/search/best_scenarios.hpp"
#include "solver/exact/drain_bound.hpp"
#include "solver/exact/expand.hpp"
#include "solver/exact/level_store.hpp"
#include "solver/exact/ordered_chunks.hpp"
#include "solver/exact/pareto.hpp"
#include "solver/exact/path_hash.hpp"
#include "solver/exact/records.hpp"
#include "solver/exact/seeding.hpp"
#include "solver/exact/state.hpp"
#ifdef GPUWCRT_HAVE_MPI
#include "solver/exact/distributed/search.hpp"
#endif

namespace gpuwcrt::exact {
namespace {

using Clock = std::chrono::steady_clock;

struct ExplorerLevel {
    LevelStore states;
    // Beam with a per-level cap: the alive states by lateness, earliest on top (dead ones popped lazily).
    std::priority_queue<std::pair<std::int64_t, std::uint32_t>, std::vector<std::pair<std::int64_t, std::uint32_t>>,
                        std::greater<>>
        by_now;
    std::vector<std::int64_t> late;                                     // beam: lateness of each state
    std::unordered_map<std::string, std::vector<std::uint32_t>> beams;  // determined set -> alive states

    // What the level holds; the beam's sets counted at a map node, a set and a few indexes each.
    std::size_t bytes(std::size_t set_len) const {
        return states.bytes() + by_now.size() * 16 + late.capacity() * 8 + beams.size() * (96 + set_len) +
               states.size() * 4;
    }
};

class ExplicitSearch {
public:
    ExplicitSearch(const Workload& w, const EngineOptions& o, const Budget& budget, const ExactSearchOptions& l,
                   const ProgressSink& pr, const StatesSignal& stored)
        : p_(make_problem(w, o.policy)),
          o_(o),
          budget_(budget),
          limits_(l),
          progress_(pr),
          stored_(stored),
          best_(p_.n),
          t0_(Clock::now()),
          threads_(worker_threads(o)),
          drain_(p_),
          seed_(w) {}

    ExactResult run() {
        ExactResult res;
        std::string stop;
        try {
            if (pruning() && limits_.seed_beam > 0) seed();
            stop = explore();
        } catch (const std::bad_alloc&) {
            levels_.clear();  // give the memory back before the witnesses are rebuilt
            stop = to_string(StopReason::memory);
        }
        levels_.clear();
        res.complete = stop.empty() && stats_.beam_cut == 0;
        if (stop.empty() && stats_.beam_cut > 0) stop = "beam";
        stats_.states = stored_count_;
        res.wcrt.resize(p_.n);
        for (int op = 0; op < p_.n; ++op)
            res.wcrt[op] =
                exact_answer(p_, op, stop, best_[op], seed_, [&] { return records_.path(best_[op].parent); });
        stats_.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0_);
        stats_.threads = threads_;
        res.stats = stats_;
        return res;
    }

    // The largest response of each operation (in ticks) and the step that produced it.
    const std::vector<Best>& best() const { return best_; }

private:
    bool pruning() const { return limits_.prune && limits_.beam == 0 && drain_.applies(); }

    // The seeding beam run (seed_responses): its answers are kept in seed_.
    void seed() {
        const Seeds seeds = seed_responses(*p_.w, o_, budget_, limits_.seed_beam, stored_, seed_);
        for (int op = 0; op < p_.n; ++op)
            if (seeds.found[op]) {
                best_[op].found = best_[op].seeded = true;
                best_[op].response = seeds.response[op];
            }
        stats_.seed_elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0_);
    }

    std::string explore() {
        if (budget_.expired()) return "timeout";
        levels_.resize(p_.n + 1);
        State s0 = initial_state(p_);
        canonicalise(p_, s0);
        records_.add(0, {});
        ++stored_count_;
        levels_[0] = std::make_unique<ExplorerLevel>();
        const Encoded e0 = encode(p_, s0);
        issue_bytes(e0.issues, scratch_issues_);
        levels_[0]->states.add(e0.key, std::hash<std::string_view>{}(e0.key), scratch_issues_, s0.now, initial_path, 0,
                               LevelStore::none);
        for (int level = 0; level <= p_.n; ++level) {
            if (!levels_[level]) continue;
            const LevelStore& here = levels_[level]->states;
            const std::size_t size = here.size();
            // What the workers prune against during this level: fixed while they run (no data
            // race, and the same pruning whatever the thread timing); it only lags behind.
            lb_.assign(p_.n, 0);
            lb_found_.assign(p_.n, 0);
            for (int op = 0; op < p_.n; ++op) {
                lb_[op] = best_[op].response;
                lb_found_[op] = best_[op].found;
            }
            stats_.peak_level_states = std::max(stats_.peak_level_states, static_cast<long long>(size));
            stats_.level_states.resize(static_cast<std::size_t>(level) + 1, 0);
            stats_.level_states[static_cast<std::size_t>(level)] = static_cast<long long>(size);
            // Chunks small enough to keep every worker busy on a small level, large enough that
            // handing them over costs nothing on a large one.
            const std::size_t chunk = std::clamp<std::size_t>(size / (static_cast<std::size_t>(threads_) * 16), 1, 256);
            const std::size_t count = (size + chunk - 1) / chunk;
            std::string stop;
            const ExpandContext x{p_, budget_, drain_, pruning(), lb_, lb_found_, limits_.beam > 0};
            run_ordered_chunks(
                count, threads_, static_cast<std::size_t>(threads_) * 8,
                [&](std::size_t c, ChunkOutput& out) {
                    expand_states(x, level, here, c * chunk, std::min(size, (c + 1) * chunk), out);
                },
                [&](std::size_t, ChunkOutput& out) {
                    stop = merge(out);
                    return stop.empty();
                });
            if (!stop.empty()) return stop;
            levels_[level].reset();
            stats_.levels = level + 1;
            if (progress_)
                progress_("exact: level " + std::to_string(level) + "/" + std::to_string(p_.n) + " done, " +
                          std::to_string(stored_count_) + " states stored");
        }
        return "";
    }

    // On the calling thread, chunk after chunk in order: responses, then children.
    std::string merge(const ChunkOutput& out) {
        stats_.expansions += out.expansions;
        stats_.steps += out.steps;
        stats_.pruned += out.pruned;
        take_responses(out, 0, best_);
        for (const ChunkOutput::Child& c : out.children) {
            insert(out, c);
            if (limits_.max_states > 0 && stored_count_ >= limits_.max_states) return "state budget";
        }
        // The stored levels and parent links stay within the budget's memory: the search stops
        // there, its answers so far replayed lower bounds (the levels are freed before the
        // witnesses are rebuilt), instead of meeting --max-memory's hard limit.
        if (bytes_in_use() > budget_.memory_bytes) return to_string(StopReason::memory);
        budget_.counters().states.store(stored_count_, std::memory_order_relaxed);  // for progress
        if (stored_.reached && !signalled_ && static_cast<std::uint64_t>(stored_count_) >= stored_.states) {
            signalled_ = true;
            stored_.reached();
        }
        return out.stop;
    }

    void insert(const ChunkOutput& out, const ChunkOutput::Child& c) {
        if (!levels_[c.level]) levels_[c.level] = std::make_unique<ExplorerLevel>();
        ExplorerLevel& L = *levels_[c.level];
        LevelStore& store = L.states;
        const std::string_view key = out.key(c), issues = out.issues(c);
        const bool beam = limits_.beam > 0;
        const Placement at = place_state(store, key, c.hash, issues, c.path, !beam, placement_, stats_.dominated);
        const int* choice = out.choices.data() + c.choice_at;
        if (at.kind == Placement::Kind::dropped) return;
        if (at.kind == Placement::Kind::replaces) {  // the same state, reached first in the canonical order
            take_over(store[at.index], records_.add(c.from, choice, c.choice_len), c.now, c.path);
            return;
        }
        const auto index = static_cast<std::uint32_t>(store.size());
        if (beam && !admit_to_beam(L, c.lateness, out.set(c), index)) return;
        if (beam && limits_.beam_level > 0 && !admit_to_level_cap(L, index)) {
            undo_beam_admission(L, out.set(c));
            return;
        }
        store.add(key, c.hash, issues, c.now, c.path, records_.add(c.from, choice, c.choice_len), at.index);
        ++stored_count_;
    }

    std::size_t bytes_in_use() const {
        std::size_t bytes = records_.bytes();
        for (const auto& level : levels_)
            if (level) bytes += level->bytes(static_cast<std::size_t>(p_.n));
        return bytes;
    }

    // Beam: at most `beam` alive states per set of determined operations; a newcomer replaces
    // the earliest one (smallest lateness) when it is later, else it is dropped.
    bool admit_to_beam(ExplorerLevel& L, std::int64_t late, std::string_view set, std::uint32_t index) {
        evicted_ = LevelStore::none;
        if (L.late.size() <= index) L.late.resize(index + 1);
        L.late[index] = late;
        std::vector<std::uint32_t>& kept = L.beams[std::string(set)];
        std::erase_if(kept, [&](std::uint32_t i) { return !L.states[i].alive; });
        if (static_cast<int>(kept.size()) >= limits_.beam) {
            auto earliest = std::min_element(kept.begin(), kept.end(),
                                             [&](std::uint32_t a, std::uint32_t b) { return L.late[a] < L.late[b]; });
            ++stats_.beam_cut;
            if (L.late[*earliest] >= L.late[index]) return false;
            L.states[*earliest].alive = false;
            evicted_ = *earliest;
            kept.erase(earliest);
        }
        kept.push_back(index);
        return true;
    }

    // The newcomer admitted by admit_to_beam is not stored after all (the level cap refused it):
    // its index, which the next stored state will take, leaves the beam, and the state it evicted
    // comes back.
    void undo_beam_admission(ExplorerLevel& L, std::string_view set) {
        std::vector<std::uint32_t>& kept = L.beams[std::string(set)];
        kept.pop_back();
        if (evicted_ != LevelStore::none) {
            L.states[evicted_].alive = true;
            kept.push_back(evicted_);
        }
    }

    // The per-level cap of the beam: the latest states of the level (lateness, set by admit_to_beam).
    bool admit_to_level_cap(ExplorerLevel& L, std::uint32_t index) {
        while (!L.by_now.empty() && !L.states[L.by_now.top().second].alive) L.by_now.pop();
        if (static_cast<long long>(L.by_now.size()) >= limits_.beam_level) {
            ++stats_.beam_cut;
            if (L.by_now.top().first >= L.late[index]) return false;
            L.states[L.by_now.top().second].alive = false;
            L.by_now.pop();
        }
        L.by_now.emplace(L.late[index], index);
        return true;
    }

    Problem p_;
    EngineOptions o_;
    Budget budget_;
    ExactSearchOptions limits_;
    ProgressSink progress_;
    StatesSignal stored_;
    bool signalled_ = false;  // stored_ called
    std::vector<Best> best_;
    Clock::time_point t0_;
    std::vector<std::unique_ptr<ExplorerLevel>> levels_;
    int threads_;
    DrainBound drain_;
    search::BestScenarios seed_;
    std::vector<std::int64_t> lb_;
    std::vector<char> lb_found_;
    Records records_;
    ExactStats stats_;
    std::string scratch_issues_;
    PlacementScratch placement_;
    long long stored_count_ = 0;  // states stored (a representative replaced by an equal state is not a new one)
    std::uint32_t evicted_ = LevelStore::none;  // the state the last beam admission evicted, if any
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
    // Under mpirun with more than one process: the same search spread over them (docs/distributed.md).
    if (options.beam == 0 && !options.one_process && exact::distributed::spread())
        if (auto r = exact::distributed::exact_wcrt_across_processes(w, o, budget, options, progress, stored))
            return *r;
#endif
    exact::ExplicitSearch s(w, o, budget, options, progress, stored);
    return s.run();
}

}  // namespace gpuwcrt
