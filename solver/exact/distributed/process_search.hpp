#pragma once
// One process's part of the exact search across processes (docs/distributed.md): it owns the
// states whose key hashes to it, expands them level by level with its worker threads, sends
// every child it does not own to its owner in exchange rounds, and merges the children it
// receives (merge, dominance and the canonical representative: pareto.hpp). Every public call is
// collective: every process makes it, in the same order.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bounds/engine_stats.hpp"
#include "common/budget.hpp"
#include "common/progress.hpp"
#include "solver/exact/distributed/exchange.hpp"
#include "solver/exact/drain_bound.hpp"
#include "solver/exact/level_store.hpp"
#include "solver/exact/pareto.hpp"
#include "solver/exact/records.hpp"
#include "solver/exact/seeding.hpp"

namespace gpuwcrt::exact {
struct ChunkOutput;
}

namespace gpuwcrt::exact::distributed {

// Why a process stops, as the number every process agrees on (the largest wins).
enum StopCode : int {
    no_stop = 0,
    stop_states = 1,
    stop_timeout = 2,
    stop_time_limit = 3,
    stop_interrupt = 4,
    stop_memory = 5
};
int stop_code(const std::string& reason);
std::string stop_text(int code);

// What a search needs besides the problem, the same on every process.
struct SearchShape {
    int threads = 1;
    long long max_states = 0;  // in all (each process stops at its share)
    bool prune = false;        // the drain bound applies and is asked for
    std::size_t round_bytes = std::size_t(1) << 20;
};

// The largest response of one operation over every process, and the decisions of every step from
// the initial state to its parent.
struct GatheredBest {
    Best best;
    std::vector<std::vector<int>> steps;
};

class ProcessSearch {
public:
    ProcessSearch(const Problem& p, const Budget& budget, const SearchShape& shape);
    ~ProcessSearch();

    // The search from the seeding run's responses (the same on every process). Returns why it
    // stopped (empty: it completed), the same on every process. `progress` and `stored` are rank
    // 0's (empty elsewhere).
    std::string run(const Seeds& seeds, const ProgressSink& progress, const StatesSignal& stored);
    // The best response of every operation on rank 0 (empty elsewhere), its steps rebuilt from
    // parent links that cross processes.
    std::vector<GatheredBest> best_on_root();
    // The statistics of every process, summed, on rank 0.
    ExactStats stats_on_root();

private:
    bool agree(int level, const ProgressSink& progress, const StatesSignal& stored);
    void expand_level(int level);
    bool merge(const ChunkOutput& out);
    void round(bool done);
    void insert(const TravellingChild& c, std::uint32_t process, std::uint64_t hash);
    std::size_t bytes_in_use() const;
    int owner(std::uint64_t hash) const;
    void steps_on_root(std::vector<GatheredBest>& best);

    const Problem& p_;
    Budget budget_;
    SearchShape shape_;
    int me_, processes_;
    DrainBound drain_;
    std::vector<std::unique_ptr<LevelStore>> levels_;
    Records records_;
    std::vector<Best> best_;
    std::vector<std::int64_t> lb_;
    std::vector<char> lb_found_;
    Exchange exchange_;
    PlacementScratch placement_;
    std::vector<int> choices_;
    int stop_ = no_stop;
    bool level_over_ = false;
    long long stored_ = 0;
    ExactStats stats_;  // this process's counts; the agreed ones on rank 0
    long long all_stored_ = 0, sent_before_ = 0, level_size_ = 0;
    bool signalled_ = false;
};

}  // namespace gpuwcrt::exact::distributed
