#include "solver/exact/distributed/process_search.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <new>

#include "solver/exact/chunk_output.hpp"
#include "solver/exact/distributed/comm.hpp"
#include "solver/exact/expand.hpp"
#include "solver/exact/ordered_chunks.hpp"
#include "solver/exact/path_hash.hpp"
#include "solver/exact/state.hpp"
#include "solver/exact/varint.hpp"

namespace gpuwcrt::exact::distributed {
namespace {

constexpr std::int64_t nothing_found = std::numeric_limits<std::int64_t>::min();
const char* const stop_texts[] = {"", "state budget", "timeout", "time limit", "interrupted", "memory limit"};

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

int stop_code(const std::string& reason) {
    for (int c = 1; c <= stop_memory; ++c)
        if (reason == stop_texts[c]) return c;
    return reason.empty() ? no_stop : stop_memory;
}

std::string stop_text(int code) { return code >= 0 && code <= stop_memory ? stop_texts[code] : "memory limit"; }

ProcessSearch::ProcessSearch(const Problem& p, const Budget& budget, const SearchShape& shape)
    : p_(p),
      budget_(budget),
      shape_(shape),
      me_(process_rank()),
      processes_(process_count()),
      drain_(p),
      best_(static_cast<std::size_t>(p.n)),
      exchange_(processes_, shape.round_bytes) {}

ProcessSearch::~ProcessSearch() = default;

// The owner of a state: from the hash of its key, mixed again, so that the states of one
// process do not share the low bits that place them in its hash table.
int ProcessSearch::owner(std::uint64_t hash) const {
    return static_cast<int>(mix64(hash) % static_cast<std::uint64_t>(processes_));
}

std::string ProcessSearch::run(const Seeds& seeds, const ProgressSink& progress, const StatesSignal& stored) {
    for (int op = 0; op < p_.n; ++op)
        if (seeds.found[static_cast<std::size_t>(op)]) {
            best_[static_cast<std::size_t>(op)].found = best_[static_cast<std::size_t>(op)].seeded = true;
            best_[static_cast<std::size_t>(op)].response = seeds.response[static_cast<std::size_t>(op)];
        }
    levels_.resize(static_cast<std::size_t>(p_.n) + 1);
    records_.add(0u, 0u, nullptr, 0);  // record 0: the initial state, in whichever process owns it
    State s0 = initial_state(p_);
    canonicalise(p_, s0);
    const Encoded e0 = encode(p_, s0);
    const std::uint64_t h0 = std::hash<std::string_view>{}(e0.key);
    if (owner(h0) == me_) {
        std::string issues;
        issue_bytes(e0.issues, issues);
        levels_[0] = std::make_unique<LevelStore>();
        levels_[0]->add(e0.key, h0, issues, s0.now, initial_path, 0, LevelStore::none);
        ++stored_;
    }
    if (budget_.expired()) stop_ = stop_code(to_string(budget_.expiry_reason()));
    for (int level = 0; level <= p_.n + 1; ++level) {
        if (!agree(level, progress, stored)) break;
        if (level <= p_.n) expand_level(level);
    }
    levels_.clear();
    return stop_text(stop_);
}

// Collective, before each level and once after the last: the stop, the largest responses (the
// drain bound's pruning reference for the level, as in one process) and the counts.
bool ProcessSearch::agree(int level, const ProgressSink& progress, const StatesSignal& stored) {
    std::vector<std::int64_t> most(static_cast<std::size_t>(p_.n) + 1);
    most[0] = stop_;
    for (int op = 0; op < p_.n; ++op) {
        const Best& b = best_[static_cast<std::size_t>(op)];
        most[static_cast<std::size_t>(op) + 1] = b.found ? b.response : nothing_found;
    }
    max_over_processes(most);
    const LevelStore* here = level <= p_.n ? levels_[static_cast<std::size_t>(level)].get() : nullptr;
    std::vector<std::int64_t> sums{stored_, here ? static_cast<std::int64_t>(here->size()) : 0, exchange_.bytes_sent};
    sum_over_processes(sums);
    stop_ = static_cast<int>(most[0]);
    lb_.assign(static_cast<std::size_t>(p_.n), 0);
    lb_found_.assign(static_cast<std::size_t>(p_.n), 0);
    for (int op = 0; op < p_.n; ++op)
        if (most[static_cast<std::size_t>(op) + 1] != nothing_found) {
            lb_[static_cast<std::size_t>(op)] = most[static_cast<std::size_t>(op) + 1];
            lb_found_[static_cast<std::size_t>(op)] = 1;
        }
    all_stored_ = sums[0];
    const long long before = level_size_;
    level_size_ = static_cast<long long>(sums[1]);
    stats_.peak_level_states = std::max(stats_.peak_level_states, static_cast<long long>(sums[1]));
    if (level <= p_.n && stop_ == no_stop) stats_.level_states.push_back(static_cast<long long>(sums[1]));
    if (level > 0) {
        stats_.level_bytes.push_back(sums[2] - sent_before_);
        sent_before_ = sums[2];
        if (stop_ == no_stop && before > 0)
            stats_.levels = level;  // as in one process: the last level that held states
        budget_.counters().states.store(static_cast<std::uint64_t>(all_stored_), std::memory_order_relaxed);
        if (progress && stop_ == no_stop && before > 0)
            progress("exact: level " + std::to_string(level - 1) + "/" + std::to_string(p_.n) + " done, " +
                     std::to_string(all_stored_) + " states stored by " + std::to_string(processes_) + " processes");
        if (stored.reached && !signalled_ && static_cast<std::uint64_t>(all_stored_) >= stored.states) {
            signalled_ = true;
            stored.reached();
        }
    }
    return stop_ == no_stop;
}

void ProcessSearch::expand_level(int level) {
    level_over_ = false;
    LevelStore* here = levels_[static_cast<std::size_t>(level)].get();
    const std::size_t size = here ? here->size() : 0;
    const auto threads = static_cast<std::size_t>(shape_.threads);
    const std::size_t chunk = std::clamp<std::size_t>(size / (threads * 16), 1, 256);
    const std::size_t count = (size + chunk - 1) / chunk;
    const ExpandContext x{p_, budget_, drain_, shape_.prune, lb_, lb_found_, false};
    try {
        run_ordered_chunks(
            count, shape_.threads, threads * 8,
            [&](std::size_t c, ChunkOutput& out) {
                expand_states(x, level, *here, c * chunk, std::min(size, (c + 1) * chunk), out);
            },
            [&](std::size_t, ChunkOutput& out) { return merge(out); });
    } catch (const std::bad_alloc&) {
        stop_ = stop_memory;
    }
    while (!level_over_) {  // the others may still send: every process takes part until all are done
        try {
            round(true);
        } catch (const std::bad_alloc&) {
            stop_ = stop_memory;
        }
    }
    levels_[static_cast<std::size_t>(level)].reset();
}

// On the calling thread, chunk after chunk: responses, then children, each kept here or queued
// for its owner; a round when the queues are full or a stop is due. False: the level is over.
bool ProcessSearch::merge(const ChunkOutput& out) {
    stats_.expansions += out.expansions;
    stats_.steps += out.steps;
    stats_.pruned += out.pruned;
    take_responses(out, static_cast<std::uint32_t>(me_), best_);
    for (const ChunkOutput::Child& c : out.children) {
        TravellingChild t{c.level,      c.now,      c.path,       c.from, out.choices.data() + c.choice_at,
                          c.choice_len, out.key(c), out.issues(c)};
        const int to = owner(c.hash);
        if (to == me_) insert(t, static_cast<std::uint32_t>(me_), c.hash);
        else write_child(t, exchange_.queue(to));
    }
    if (shape_.max_states > 0 && stored_ * processes_ >= shape_.max_states) stop_ = std::max(stop_, int(stop_states));
    if (bytes_in_use() > budget_.memory_bytes) stop_ = std::max(stop_, int(stop_memory));
    if (!out.stop.empty()) stop_ = std::max(stop_, stop_code(out.stop));
    if (stop_ != no_stop || exchange_.due()) round(stop_ != no_stop);
    return !level_over_ && stop_ == no_stop;
}

void ProcessSearch::round(bool done) {
    const RoundOutcome r = exchange_.round(done, stop_, stop_memory);
    if (r.stop != no_stop) stop_ = std::max(stop_, r.stop);
    if (r.all_done || r.stop != no_stop) level_over_ = true;
    for (int q = 0; q < processes_; ++q) {
        const std::string_view in = exchange_.received(q);
        for (std::size_t at = 0; at < in.size();) {
            const TravellingChild c = read_child(in, at, choices_);
            insert(c, static_cast<std::uint32_t>(q), std::hash<std::string_view>{}(c.key));
        }
    }
    if (bytes_in_use() > budget_.memory_bytes) stop_ = std::max(stop_, int(stop_memory));
}

void ProcessSearch::insert(const TravellingChild& c, std::uint32_t process, std::uint64_t hash) {
    auto& level = levels_[static_cast<std::size_t>(c.level)];
    if (!level) level = std::make_unique<LevelStore>();
    const Placement at = place_state(*level, c.key, hash, c.issues, c.path, true, placement_, stats_.dominated);
    if (at.kind == Placement::Kind::dropped) return;
    const std::uint32_t record = records_.add(process, c.from, c.choice, c.choice_len);
    if (at.kind == Placement::Kind::replaces) {  // the same state, reached first in the canonical order
        take_over((*level)[at.index], record, c.now, c.path);
        return;
    }
    level->add(c.key, hash, c.issues, c.now, c.path, record, at.index);
    ++stored_;
}

std::size_t ProcessSearch::bytes_in_use() const {
    std::size_t bytes = records_.bytes() + exchange_.bytes();
    for (const auto& level : levels_)
        if (level) bytes += level->bytes();
    return bytes;
}

std::vector<GatheredBest> ProcessSearch::best_on_root() {
    std::string mine;
    for (const Best& b : best_) write_best(b, mine);
    const std::vector<std::string> all = gather(mine, 0);
    std::vector<GatheredBest> best(me_ == 0 ? best_.size() : 0);
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
            put_varint(answer, op);
            put_varint(answer, records_.parent_process[rec]);
            put_varint(answer, records_.parent[rec]);
            const std::vector<int> step = records_.step(rec);
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
    std::vector<std::int64_t> sums{stored_,       stats_.expansions, stats_.steps,
                                   stats_.pruned, stats_.dominated,  exchange_.bytes_sent};
    sum_over_processes(sums);
    const std::vector<std::string> rss = gather(std::to_string(peak_rss_kib()), 0);
    ExactStats s = stats_;
    s.states = sums[0];
    s.expansions = sums[1];
    s.steps = sums[2];
    s.pruned = sums[3];
    s.dominated = sums[4];
    s.bytes_exchanged = sums[5];
    s.threads = shape_.threads;
    s.processes = processes_;
    while (!s.level_states.empty() && s.level_states.back() == 0) s.level_states.pop_back();  // as in one process
    for (const std::string& kib : rss) s.process_peak_rss_kib.push_back(std::stoll(kib));
    return s;
}

}  // namespace gpuwcrt::exact::distributed
