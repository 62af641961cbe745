#include "solver/exact/level_search.hpp"

#include <algorithm>
#include <functional>
#include <new>
#include <thread>

#include "solver/exact/expand.hpp"
#include "solver/exact/ordered_chunks.hpp"
#include "solver/exact/path_hash.hpp"
#include "solver/exact/state.hpp"

namespace gpuwcrt::exact {

bool prunes(const Problem& p, const LevelSearchShape& shape) {
    return shape.prune && shape.beam == 0 && !shape.fixed_point && DrainBound(p).applies();
}

int worker_threads(int asked, int on_node) {
    if (asked > 0) return asked;
    const unsigned hc = std::thread::hardware_concurrency();
    const int cores = hc == 0 ? 2 : static_cast<int>(hc);
    return std::clamp(cores / std::max(on_node, 1), 1, 8);
}

std::string level_progress(int level, int n, long long stored, int processes) {
    std::string line = "exact: level " + std::to_string(level) + "/" + std::to_string(n) + " done, " +
                       std::to_string(stored) + " states stored";
    if (processes > 1) line += " by " + std::to_string(processes) + " processes";
    return line;
}

LevelStart OneProcess::begin_level(LevelSearch& s, int level) {
    if (s.stopped() || s.ended() || level >= s.level_count()) return LevelStart::over;
    if (!s.has(level)) return LevelStart::skip;
    s.fix_bound(s.largest());
    s.count_level(level, static_cast<long long>(s.size(level)));
    return LevelStart::expand;
}

void OneProcess::end_level(LevelSearch& s, int level) {
    if (s.stopped()) return;
    s.stats().levels = level + 1;
    if (progress_) progress_(level_progress(level, s.problem().n, s.stored(), 1));
}

bool OneProcess::after_chunk(LevelSearch& s) {
    s.count_stored(s.stored());
    return true;
}

LevelSearch::LevelSearch(const Problem& p, const Budget& budget, const LevelSearchShape& shape, Ownership& owner,
                         const StatesSignal& stored)
    : p_(p),
      budget_(budget),
      shape_(shape),
      owner_(owner),
      signal_(stored),
      drain_(p),
      prune_(shape.prune && shape.beam == 0 && !shape.fixed_point && drain_.applies()),
      beam_(shape.beam, shape.beam_level),
      best_(static_cast<std::size_t>(p.n)) {}

LevelSearch::~LevelSearch() = default;

void LevelSearch::start(const Seeds& seeds) {
    for (std::size_t op = 0; op < best_.size() && op < seeds.found.size(); ++op)
        if (seeds.found[op]) {
            best_[op].found = best_[op].seeded = true;
            best_[op].response = seeds.response[op];
        }
    levels_.resize(shape_.fixed_point ? 1 : static_cast<std::size_t>(p_.n) + 1);
    if (shape_.fixed_point) seen_ = std::make_unique<LevelStore>();
    if (budget_.expired()) return stop(budget_.expiry_reason());
    add_record(0, 0, nullptr, 0);  // record 0: the initial state, in whichever process owns it
    State s0 = initial_state(p_);
    canonicalise(p_, s0);
    const Encoded e0 = encode(p_, s0);
    const std::uint64_t h0 = std::hash<std::string_view>{}(e0.key);
    if (!owner_.owns(h0)) return;
    std::string issues;
    issue_bytes(e0.issues, issues);
    if (seen_) seen_->add(e0.key, h0, issues, s0.now, initial_path, 0, LevelStore::none);
    levels_[0] = std::make_unique<SearchLevel>();
    levels_[0]->states.add(e0.key, h0, issues, s0.now, initial_path, 0, LevelStore::none);
    ++stored_;
}

void LevelSearch::run() {
    for (int level = 0;; ++level) {
        const LevelStart go = owner_.begin_level(*this, level);
        if (go == LevelStart::over) return;
        if (go == LevelStart::skip) continue;
        expand(level);
        owner_.end_level(*this, level);
    }
}

std::vector<std::int64_t> LevelSearch::largest() const {
    std::vector<std::int64_t> out;
    out.reserve(best_.size());
    for (const Best& b : best_) out.push_back(b.found ? b.response : nothing_found);
    return out;
}

void LevelSearch::fix_bound(const std::vector<std::int64_t>& largest) {
    lb_.assign(largest.size(), 0);
    lb_found_.assign(largest.size(), 0);
    for (std::size_t op = 0; op < largest.size(); ++op)
        if (largest[op] != nothing_found) {
            lb_[op] = largest[op];
            lb_found_[op] = 1;
        }
}

std::size_t LevelSearch::size(int level) const {
    const auto& L = levels_[static_cast<std::size_t>(level)];
    return L ? L->states.size() : 0;
}

void LevelSearch::count_level(int level, long long states) {
    stats_.peak_level_states = std::max(stats_.peak_level_states, states);
    stats_.level_states.resize(static_cast<std::size_t>(level) + 1, 0);
    stats_.level_states[static_cast<std::size_t>(level)] = states;
}

void LevelSearch::expand(int level) {
    const SearchLevel* here = levels_[static_cast<std::size_t>(level)].get();
    const std::size_t size = here ? here->states.size() : 0;
    const auto threads = static_cast<std::size_t>(shape_.threads);
    // Chunks small enough to keep every worker busy on a small level, large enough that handing
    // them over costs nothing on a large one.
    const std::size_t chunk = std::clamp<std::size_t>(size / (threads * 16), 1, 256);
    const std::size_t count = (size + chunk - 1) / chunk;
    const ExpandContext x{p_, budget_, drain_, prune_, lb_, lb_found_, shape_.beam > 0, shape_.fixed_point};
    try {
        run_ordered_chunks(
            count, shape_.threads, threads * 8,
            [&](std::size_t c, ChunkOutput& out) {
                expand_states(x, level, here->states, c * chunk, std::min(size, (c + 1) * chunk), out);
            },
            [&](std::size_t, ChunkOutput& out) { return merge(out); });
    } catch (const std::bad_alloc&) {
        stop(StopReason::memory);
    }
    owner_.finish_level(*this);
    levels_[static_cast<std::size_t>(level)].reset();
}

// On the calling thread, chunk after chunk in order: responses, then children. The stored
// levels and parent links stay within the budget's memory: the search stops there, its answers
// so far replayed lower bounds, instead of meeting --max-memory's hard limit.
bool LevelSearch::merge(const ChunkOutput& out) {
    stats_.expansions += out.expansions;
    stats_.steps += out.steps;
    stats_.pruned += out.pruned;
    take_responses(out, owner_.process(), best_);
    if (out.ended) {
        ended_ = true;
    } else if (store_children(out)) {
        if (bytes_in_use() > budget_.memory_bytes) stop(StopReason::memory);
        if (out.stop) stop(*out.stop);
    }
    return owner_.after_chunk(*this) && !stop_ && !ended_;
}

// False: the state budget stopped the search (the chunk's other children are dropped).
bool LevelSearch::store_children(const ChunkOutput& out) {
    const long long processes = owner_.processes();
    for (const ChunkOutput::Child& c : out.children) {
        if (owner_.owns(c.hash)) insert(out.view(c), c.hash, owner_.process());
        else owner_.hand_over(out.view(c), c.hash);
        if (shape_.max_states > 0 && stored_ * processes >= shape_.max_states) {
            stop(StopReason::states);
            return false;
        }
    }
    return true;
}

void LevelSearch::insert(const ChildView& c, std::uint64_t hash, std::uint32_t process) {
    if (seen_) return insert_unseen(c, hash);
    auto& slot = levels_[static_cast<std::size_t>(c.level)];
    if (!slot) slot = std::make_unique<SearchLevel>();
    SearchLevel& L = *slot;
    const bool beam = shape_.beam > 0;
    const Placement at = place_state(L.states, c.key, hash, c.issues, c.path, !beam, placement_, stats_.dominated);
    if (at.kind == Placement::Kind::dropped) return;
    if (at.kind == Placement::Kind::replaces) {  // the same state, reached first in the canonical order
        take_over(L.states[at.index], add_record(process, c.from, c.choice, c.choice_len), c.now, c.path);
        return;
    }
    const auto index = static_cast<std::uint32_t>(L.states.size());
    if (beam && !beam_.admit(L, c.lateness, c.set, index, stats_.beam_cut)) return;
    L.states.add(c.key, hash, c.issues, c.now, c.path, add_record(process, c.from, c.choice, c.choice_len), at.index);
    ++stored_;
}

// A FixedPointMode's child: stored at its level unless the same state (key, issue vector and
// `now`) was stored at any level before. Without parent records: the mode needs no witness.
void LevelSearch::insert_unseen(const ChildView& c, std::uint64_t hash) {
    const std::uint32_t same_key = seen_->find(c.key, hash);
    if (seen_->holds(same_key, c.issues, c.now)) return;
    seen_->add(c.key, hash, c.issues, c.now, c.path, 0, same_key);
    const auto level = static_cast<std::size_t>(c.level);
    if (levels_.size() <= level) levels_.resize(level + 1);
    if (!levels_[level]) levels_[level] = std::make_unique<SearchLevel>();
    LevelStore& store = levels_[level]->states;
    store.add(c.key, hash, c.issues, c.now, c.path, 0, store.find(c.key, hash));
    ++stored_;
}

// Across processes a parent may live in another one: the record names it.
std::uint32_t LevelSearch::add_record(std::uint32_t process, std::uint32_t from, const int* choice, std::size_t count) {
    if (owner_.processes() > 1) return records_.add(process, from, choice, count);
    return records_.add(from, choice, count);
}

void LevelSearch::count_stored(long long all) {
    budget_.counters().states.store(static_cast<std::uint64_t>(all), std::memory_order_relaxed);  // for progress
    if (signal_.reached && !signalled_ && static_cast<std::uint64_t>(all) >= signal_.states) {
        signalled_ = true;
        signal_.reached();
    }
}

void LevelSearch::free_levels() {
    levels_.clear();
    seen_.reset();
}

std::size_t LevelSearch::bytes_in_use() const {
    std::size_t bytes = records_.bytes() + owner_.bytes() + (seen_ ? seen_->bytes() : 0);
    for (const auto& level : levels_)
        if (level) bytes += level->bytes(static_cast<std::size_t>(p_.n));
    return bytes;
}

}  // namespace gpuwcrt::exact
