#pragma once
// One process's part of the exact search across processes (docs/theory/distributed.md): it owns the
// states whose key hashes to it, expands them level by level (level_search.hpp), sends every
// child it does not own to its owner in exchange rounds, and stores the children it receives.
// Every public call is collective: every process makes it, in the same order.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bounds/engine_stats.hpp"
#include "common/budget.hpp"
#include "common/progress.hpp"
#include "solver/exact/distributed/exchange.hpp"
#include "solver/exact/level_search.hpp"
#include "solver/exact/records.hpp"
#include "solver/exact/seeding.hpp"

namespace gpuwcrt::exact::distributed {

// What a search needs besides the problem, the same on every process.
struct SearchShape {
    LevelSearchShape search;
    std::size_t round_bytes = std::size_t(1) << 20;
};

// The largest response of one operation over every process, and the decisions of every step from
// the initial state to its parent.
struct GatheredBest {
    Best best;
    std::vector<std::vector<int>> steps;
};

// The ownership of states across processes (level_search.hpp): by the hash of their key.
class ProcessSearch : public Ownership {
public:
    // `stored` is rank 0's (empty elsewhere).
    ProcessSearch(const Problem& p, const Budget& budget, const SearchShape& shape, const StatesSignal& stored);
    ~ProcessSearch() override;

    // The search from the seeding run's responses (the same on every process). Returns why it
    // stopped (none: it completed), the same on every process. `progress` is rank 0's (empty
    // elsewhere).
    std::optional<StopReason> run(const Seeds& seeds, const ProgressSink& progress);
    // The best response of every operation on rank 0 (empty elsewhere), its steps rebuilt from
    // parent links that cross processes.
    std::vector<GatheredBest> best_on_root();
    // The statistics of every process, summed, on rank 0.
    ExactStats stats_on_root();

    int processes() const override { return processes_; }
    std::uint32_t process() const override { return static_cast<std::uint32_t>(me_); }
    bool owns(std::uint64_t hash) const override { return owner(hash) == me_; }
    LevelStart begin_level(LevelSearch& s, int level) override;
    void hand_over(const ChildView& child, std::uint64_t hash) override;
    bool after_chunk(LevelSearch& s) override;
    void finish_level(LevelSearch& s) override;
    std::size_t bytes() const override { return exchange_.bytes(); }

private:
    bool agree(int level);
    void round(bool done);
    int owner(std::uint64_t hash) const;
    void steps_on_root(std::vector<GatheredBest>& best);

    const Problem& p_;
    Budget budget_;
    int me_, processes_;
    Exchange exchange_;
    std::vector<int> choices_;
    ProgressSink progress_;  // rank 0's (empty elsewhere)
    bool level_over_ = false;
    long long all_stored_ = 0, sent_before_ = 0, level_size_ = 0;
    LevelSearch search_;
};

}  // namespace gpuwcrt::exact::distributed
