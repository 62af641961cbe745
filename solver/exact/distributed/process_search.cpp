#include "solver/exact/distributed/process_search.hpp"

#include <sys/resource.h>

#include <functional>
#include <new>

#include "bounds/engine_stats.hpp"
#include "solver/exact/distributed/comm.hpp"
#include "solver/exact/path_hash.hpp"
#include "solver/exact/varint.hpp"

namespace gpuwcrt::exact::distributed {
namespace {

// Which answer of one operation wins between processes: the larger response; on a tie the
// seeding run's, then the path first in the canonical order (path_hash.hpp), then (never seen:
// equal 64-bit hashes) the lower rank.
bool better_than(const Best& a, const Best& b) {
    if (!b.found) return a.found;
    if (!a.found) return false;
    if (a.response != b.response) return a.response > b.response;
    if (a.seeded != b.seeded) return a.seeded;
    if (a.path != b.path) return a.path < b.path;
    return a.process < b.process;
}

void write_best(const Best& b, std::string& out) {
    put_varint(out, b.found);
    put_varint(out, b.seeded);
    put_varint(out, b.response);
    put_varint(out, static_cast<std::int64_t>(b.path >> 32));
    put_varint(out, static_cast<std::int64_t>(b.path & 0xffffffffu));
    put_varint(out, b.process);
    put_varint(out, b.parent);
    put_varint(out, static_cast<std::int64_t>(b.last_step.size()));
    for (int d : b.last_step) put_varint(out, d);
}

Best read_best(VarintReader& r) {
    Best b;
    b.found = r.get() != 0;
    b.seeded = r.get() != 0;
    b.response = r.get();
    const auto high = static_cast<std::uint64_t>(r.get());
    b.path = high << 32 | static_cast<std::uint64_t>(r.get());
    b.process = static_cast<std::uint32_t>(r.get());
    b.parent = static_cast<std::uint32_t>(r.get());
    const auto n = static_cast<std::size_t>(r.get());
    for (std::size_t i = 0; i < n; ++i) b.last_step.push_back(static_cast<int>(r.get()));
    return b;
}

long long peak_rss_kib() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;  // Linux: KiB
}

}  // namespace

ProcessSearch::ProcessSearch(const Problem& p, const Budget& budget, const SearchShape& shape,
                             const StatesSignal& stored)
    : p_(p),
      budget_(budget),
      me_(process_rank()),
      processes_(process_count()),
      exchange_(processes_, shape.round_bytes),
      search_(p, budget, shape.search, *this, stored) {}

ProcessSearch::~ProcessSearch() = default;

// The owner of a state: from the hash of its key, mixed again, so that the states of one
// process do not share the low bits that place them in its hash table.
int ProcessSearch::owner(std::uint64_t hash) const {
    return static_cast<int>(splitmix_mix(hash) % static_cast<std::uint64_t>(processes_));
}

std::optional<StopReason> ProcessSearch::run(const Seeds& seeds, const ProgressSink& progress) {
    progress_ = progress;
    search_.start(seeds);
    search_.run();
    search_.free_levels();
    return search_.stopped();
}

// Every level is agreed on, held here or not, and once more after the last.
LevelStart ProcessSearch::begin_level(LevelSearch& /*s*/, int level) {
    if (level > p_.n + 1 || !agree(level)) return LevelStart::over;
    return level <= p_.n ? LevelStart::expand : LevelStart::skip;
}

// Collective, before each level and once after the last: the stop, the largest responses (the
// drain bound's pruning reference for the level, as in one process) and the counts.
bool ProcessSearch::agree(int level) {
    std::vector<std::int64_t> most = search_.largest();
    most.insert(most.begin(), stop_code(search_.stopped()));
    max_over_processes(most);
    const std::int64_t here = level <= p_.n ? static_cast<std::int64_t>(search_.size(level)) : 0;
    std::vector<std::int64_t> sums{search_.stored(), here, exchange_.bytes_sent};
    sum_over_processes(sums);
    if (const auto stop = stop_of_code(most[0])) search_.stop(*stop);
    const bool going = !search_.stopped();
    search_.fix_bound({most.begin() + 1, most.end()});
    all_stored_ = sums[0];
    const long long before = level_size_;
    level_size_ = static_cast<long long>(sums[1]);
    ExactStats& stats = search_.stats();
    if (level <= p_.n && going) search_.count_level(level, level_size_);
    if (level > 0) {
        stats.level_bytes.push_back(sums[2] - sent_before_);
        sent_before_ = sums[2];
        if (going && before > 0) {
            stats.levels = level;  // as in one process: the last level that held states
            if (progress_) progress_(level_progress(level - 1, p_.n, all_stored_, processes_));
        }
        search_.count_stored(all_stored_);
    }
    return going;
}

void ProcessSearch::hand_over(const ChildView& child, std::uint64_t hash) {
    write_child(child, exchange_.queue(owner(hash)));
}

// A round when the queues are full or a stop is due. False: the level is over.
bool ProcessSearch::after_chunk(LevelSearch& s) {
    if (s.stopped() || exchange_.due()) round(s.stopped().has_value());
    return !level_over_;
}

// The others may still send: every process takes part until all are done with the level.
void ProcessSearch::finish_level(LevelSearch& s) {
    while (!level_over_) {
        try {
            round(true);
        } catch (const std::bad_alloc&) {
            s.stop(StopReason::memory);
        }
    }
    level_over_ = false;
}

void ProcessSearch::round(bool done) {
    const RoundOutcome r = exchange_.round(done, search_.stopped());
    if (r.stop) search_.stop(*r.stop);
    if (r.all_done || r.stop) level_over_ = true;
    for (int q = 0; q < processes_; ++q) {
        const std::string_view in = exchange_.received(q);
        for (std::size_t at = 0; at < in.size();) {
            const ChildView c = read_child(in, at, choices_);
            search_.insert(c, std::hash<std::string_view>{}(c.key), static_cast<std::uint32_t>(q));
        }
    }
    if (search_.bytes_in_use() > budget_.memory_bytes) search_.stop(StopReason::memory);
}

std::vector<GatheredBest> ProcessSearch::best_on_root() {
    std::string mine;
    for (const Best& b : search_.best()) write_best(b, mine);
    const std::vector<std::string> all = gather(mine, 0);
    std::vector<GatheredBest> best(me_ == 0 ? search_.best().size() : 0);
    for (const std::string& bytes : all) {
        VarintReader r{bytes};
        for (GatheredBest& g : best) {
            Best b = read_best(r);
            if (better_than(b, g.best)) g.best = std::move(b);
        }
    }
    steps_on_root(best);
    return best;
}

// Collective: rank 0 asks, round after round, for the record each pending path has reached (in
// the process that holds it); its holder answers with the record's step and parent link. A path
// ends at record 0, the initial state; it has at most one step per level.
void ProcessSearch::steps_on_root(std::vector<GatheredBest>& best) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> at;  // per operation: (process, record) reached
    for (const GatheredBest& g : best) at.emplace_back(g.best.process, g.best.parent);
    std::vector<std::vector<std::vector<int>>> backwards(best.size());
    for (;;) {
        std::string ask;
        for (std::size_t op = 0; op < best.size(); ++op)
            if (best[op].best.found && !best[op].best.seeded && at[op].second != 0) {
                put_varint(ask, static_cast<std::int64_t>(op));
                put_varint(ask, at[op].first);
                put_varint(ask, at[op].second);
            }
        broadcast(ask, 0);
        if (ask.empty()) break;
        std::string answer;
        for (VarintReader r{ask}; r.at < ask.size();) {
            const std::int64_t op = r.get(), process = r.get(), record = r.get();
            if (process != me_) continue;
            const auto rec = static_cast<std::uint32_t>(record);
            const Records& records = search_.records();
            put_varint(answer, op);
            put_varint(answer, records.parent_process[rec]);
            put_varint(answer, records.parent[rec]);
            const std::vector<int> step = records.step(rec);
            put_varint(answer, static_cast<std::int64_t>(step.size()));
            for (int d : step) put_varint(answer, d);
        }
        for (const std::string& bytes : gather(answer, 0))
            for (VarintReader r{bytes}; r.at < bytes.size();) {
                const auto op = static_cast<std::size_t>(r.get());
                at[op].first = static_cast<std::uint32_t>(r.get());
                at[op].second = static_cast<std::uint32_t>(r.get());
                std::vector<int> step(static_cast<std::size_t>(r.get()));
                for (int& d : step) d = static_cast<int>(r.get());
                backwards[op].push_back(std::move(step));
            }
    }
    for (std::size_t op = 0; op < best.size(); ++op)
        best[op].steps.assign(backwards[op].rbegin(), backwards[op].rend());
}

ExactStats ProcessSearch::stats_on_root() {
    ExactStats s = search_.stats();
    std::vector<std::int64_t> sums{search_.stored(), s.expansions, s.steps,
                                   s.pruned,         s.dominated,  exchange_.bytes_sent};
    sum_over_processes(sums);
    const std::vector<std::string> rss = gather(std::to_string(peak_rss_kib()), 0);
    s.states = sums[0];
    s.expansions = sums[1];
    s.steps = sums[2];
    s.pruned = sums[3];
    s.dominated = sums[4];
    s.bytes_exchanged = sums[5];
    s.threads = search_.threads();
    s.processes = processes_;
    while (!s.level_states.empty() && s.level_states.back() == 0) s.level_states.pop_back();  // as in one process
    for (const std::string& kib : rss) s.process_peak_rss_kib.push_back(std::stoll(kib));
    return s;
}

}  // namespace gpuwcrt::exact::distributed
