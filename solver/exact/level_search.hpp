#pragma once
// The exact engine's search level by level (docs/theory/exact-engine.md, "Search"), written once for
// the search in one process (explorer.cpp) and across processes (distributed/,
// docs/theory/distributed.md): the initial state, the pruning bound fixed for each level, the chunks
// the worker threads expand, the counters, where each new state goes (merge and dominance:
// pareto.hpp; the beam: search_level.hpp), the stored-states signal, the stops and the one loop
// over the levels. Which process stores a state, and when a level starts, is the Ownership policy
// plugged into it: in one process, this one stores all; across processes, each level starts with
// an agreement of every process (distributed/process_search.hpp). The frames' window
// (solver/frames/frame_exploration.cpp) is a mode of it: FixedPointMode.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bounds/engine_stats.hpp"
#include "common/budget.hpp"
#include "common/progress.hpp"
#include "solver/exact/chunk_output.hpp"
#include "solver/exact/drain_bound.hpp"
#include "solver/exact/pareto.hpp"
#include "solver/exact/records.hpp"
#include "solver/exact/search_level.hpp"
#include "solver/exact/seeding.hpp"

namespace gpuwcrt::exact {

struct State;

// The search over a state graph with cycles, to a fixed point: levels are steps from the initial
// state (breadth first), a state stored at any level is never stored again, and the search ends
// at the first empty level. Every step passes the mode before its child is stored. Merge,
// dominance, beam, pruning and parent records are off: they are proven for the exact engine's
// levels, where a state's level is its number of determined operations and no path returns.
class FixedPointMode {
public:
    virtual ~FixedPointMode() = default;
    // On a worker thread, after every step: false ends the search (LevelSearch::ended(), an outcome
    // of the mode, not a stop); else `child` (when `has_child`) may be rewritten before it is
    // canonicalised and stored.
    virtual bool follow(State& child, bool has_child) const = 0;
};

// What a search keeps and how it runs, the same on every process.
struct LevelSearchShape {
    int threads = 1;
    long long max_states = 0;  // stored states in all, 0: no limit (each process stops at its share)
    bool prune = false;        // the drain bound is asked for (it applies where prunes() says)
    int beam = 0;              // > 0: the beam, in one process only (ExactSearchOptions::beam)
    long long beam_level = 0;  // with the beam: at most this many states per level (0: no cap)
    // In one process only, without the beam (the drain bound does not prune in it).
    const FixedPointMode* fixed_point = nullptr;
};

// Whether a search of this shape prunes by the drain bound: asked for, neither the beam nor a
// FixedPointMode, and where the bound is proven (drain_bound.hpp).
bool prunes(const Problem& p, const LevelSearchShape& shape);

// The worker threads of a search: `asked` (EngineOptions::threads) when positive, else the
// node's cores shared among the `on_node` processes of the run there, 1 to 8 (2 cores when the
// count is unknown).
int worker_threads(int asked, int on_node = 1);

// The progress line once `level` of `n` is expanded, with `stored` states stored in all.
std::string level_progress(int level, int n, long long stored, int processes);

class LevelSearch;

// Before each level (LevelSearch::run): expand it, pass it by (it holds no state here), or end.
enum class LevelStart { expand, skip, over };

// Which process stores a state: the owner of its key's hash. A child owned by another process
// is handed over to it; the exchange and the counts that follow each chunk are the policy's, and
// so is the start of each level.
class Ownership {
public:
    virtual ~Ownership() = default;
    // Before level `level` (0, 1, … in turn): the bound and the counts of the level are set here.
    virtual LevelStart begin_level(LevelSearch& s, int level) = 0;
    // After an expanded level.
    virtual void end_level(LevelSearch& /*s*/, int /*level*/) {}
    virtual int processes() const { return 1; }
    virtual std::uint32_t process() const { return 0; }
    virtual bool owns(std::uint64_t /*hash*/) const { return true; }
    virtual void hand_over(const ChildView& /*child*/, std::uint64_t /*hash*/) {}
    // After each merged chunk; false ends the level's chunks (a stop agreed with the others).
    virtual bool after_chunk(LevelSearch& s) = 0;
    // After the level's last chunk: until every process is done with the level.
    virtual void finish_level(LevelSearch& /*s*/) {}
    // What the policy holds (buffers), counted in the search's memory.
    virtual std::size_t bytes() const { return 0; }
};

// The search in one process: it owns every state, counts what it stores chunk by chunk and
// reports each level done to `progress`.
class OneProcess : public Ownership {
public:
    explicit OneProcess(ProgressSink progress = {}) : progress_(std::move(progress)) {}
    LevelStart begin_level(LevelSearch& s, int level) override;
    void end_level(LevelSearch& s, int level) override;
    bool after_chunk(LevelSearch& s) override;

private:
    ProgressSink progress_;
};

class LevelSearch {
public:
    // In largest() and fix_bound(): no response found yet.
    static constexpr std::int64_t nothing_found = INT64_MIN;

    LevelSearch(const Problem& p, const Budget& budget, const LevelSearchShape& shape, Ownership& owner,
                const StatesSignal& stored);
    ~LevelSearch();

    // The seeding run's responses taken as found, and the initial state stored by its owner
    // (unless the budget has expired: then the search stops before it starts).
    void start(const Seeds& seeds);
    // Expands the levels in order, as the Ownership policy starts them, until it ends the search.
    void run();
    // Per operation: the largest response found here, or nothing_found.
    std::vector<std::int64_t> largest() const;
    // The bound the workers prune against while the next level is expanded, fixed for the level
    // (no data race, and the same pruning whatever the thread timing); it only lags behind.
    void fix_bound(const std::vector<std::int64_t>& largest);
    bool has(int level) const { return levels_[static_cast<std::size_t>(level)] != nullptr; }
    // Levels that may hold states: the problem's operations and one, or in a FixedPointMode the
    // deepest reached and one.
    int level_count() const { return static_cast<int>(levels_.size()); }
    const Problem& problem() const { return p_; }
    std::size_t size(int level) const;
    // The statistics of a level about to be expanded, which holds `states` (in every process).
    void count_level(int level, long long states);
    // Expands `level` (the states this process holds), stores or hands over every child, then
    // frees the level.
    void expand(int level);
    // Stores a new state where its level's merge, dominance and beam place it; its parent's
    // record is in `process`.
    void insert(const ChildView& c, std::uint64_t hash, std::uint32_t process);
    // `all` states stored (by every process): for the progress counter and the stored signal.
    void count_stored(long long all);
    void stop(StopReason r) { keep_strongest(stop_, r); }
    const std::optional<StopReason>& stopped() const { return stop_; }
    // The FixedPointMode ended the search (a step beyond its range).
    bool ended() const { return ended_; }
    std::size_t bytes_in_use() const;
    void free_levels();

    long long stored() const { return stored_; }  // by this process (a replaced state is not a new one)
    std::vector<Best>& best() { return best_; }
    const Records& records() const { return records_; }
    ExactStats& stats() { return stats_; }
    int threads() const { return shape_.threads; }

private:
    bool merge(const ChunkOutput& out);
    bool store_children(const ChunkOutput& out);
    void insert_unseen(const ChildView& c, std::uint64_t hash);
    std::uint32_t add_record(std::uint32_t process, std::uint32_t from, const int* choice, std::size_t count);

    const Problem& p_;
    Budget budget_;
    LevelSearchShape shape_;
    Ownership& owner_;
    StatesSignal signal_;
    bool signalled_ = false;
    DrainBound drain_;
    bool prune_;
    BeamAdmission beam_;
    std::vector<std::unique_ptr<SearchLevel>> levels_;
    std::unique_ptr<LevelStore> seen_;  // FixedPointMode: every state stored, at any level
    Records records_;
    std::vector<Best> best_;
    std::vector<std::int64_t> lb_;
    std::vector<char> lb_found_;
    PlacementScratch placement_;
    std::optional<StopReason> stop_;
    bool ended_ = false;
    long long stored_ = 0;
    ExactStats stats_;
};

}  // namespace gpuwcrt::exact
