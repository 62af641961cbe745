#include "solver/exact/explorer.hpp"

#include <memory>
#include <new>
#include <optional>
#include <queue>
#include <thread>
#include <unordered_map>

#include "sim/search/best_scenarios.hpp"
#include "solver/exact/drain_bound.hpp"
#include "solver/exact/level_store.hpp"
#include "solver/exact/ordered_chunks.hpp"
#include "solver/exact/state.hpp"
#include "solver/exact/step.hpp"
#include "solver/exact/varint.hpp"
#include "solver/exact/witness_path.hpp"

namespace gpuwcrt {
namespace {

using namespace exact;
using Clock = std::chrono::steady_clock;

struct Level {
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

void issue_bytes(const std::vector<std::int64_t>& issues, std::string& out) {
    out.clear();
    for (std::int64_t x : issues) put_varint(out, x);
}

void read_issues(std::string_view bytes, std::vector<std::int64_t>& out) {
    out.clear();
    VarintReader r{bytes};
    while (r.at < bytes.size()) out.push_back(r.get());
}

// Parent links and each step's decisions, for every stored state (record 0: the initial state).
struct Records {
    std::vector<std::uint32_t> parent;
    std::vector<std::uint64_t> begin{0};
    std::vector<int> decisions;
    std::uint32_t add(std::uint32_t from, const std::vector<int>& choice) {
        parent.push_back(from);
        decisions.insert(decisions.end(), choice.begin(), choice.end());
        begin.push_back(decisions.size());
        return static_cast<std::uint32_t>(parent.size() - 1);
    }
    std::size_t bytes() const { return parent.capacity() * 4 + begin.capacity() * 8 + decisions.capacity() * 4; }
    std::vector<std::vector<int>> path(std::uint32_t to) const {
        std::vector<std::vector<int>> steps;
        for (std::uint32_t r = to; r != 0; r = parent[r])
            steps.emplace_back(decisions.begin() + static_cast<long>(begin[r]),
                               decisions.begin() + static_cast<long>(begin[r + 1]));
        return {steps.rbegin(), steps.rend()};
    }
};

struct Best {
    bool found = false;
    bool seeded = false;  // the seeding beam run's answer (kept, replayed, in ExplicitSearch::seed_)
    std::int64_t response = 0;
    std::uint32_t parent = 0;
    std::vector<int> last_step;
};

// The number of worker threads (EngineOptions::threads; docs/exact-engine.md, "Both cores").
int worker_threads(const EngineOptions& o) {
    if (o.threads > 0) return o.threads;
    const unsigned hc = std::thread::hardware_concurrency();
    return hc == 0 ? 2 : static_cast<int>(std::min(hc, 8u));
}

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
        stats_.states = static_cast<long long>(records_.parent.size());
        res.wcrt.resize(p_.n);
        for (int op = 0; op < p_.n; ++op) answer(op, stop, res.wcrt[op]);
        stats_.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0_);
        stats_.threads = threads_;
        res.stats = stats_;
        return res;
    }

private:
    bool pruning() const { return limits_.prune && limits_.beam == 0 && drain_.applies(); }

    // The largest responses found by a beam run (cheap, and usually within a unit or two of the
    // WCRT): the drain bound prunes against them from the first level on. The beam run is this
    // engine's strategy of the lower-bound search (sim/search/best_scenarios.hpp): its replayed
    // answers are kept in seed_.
    void seed() {
        ExactSearchOptions beam;
        beam.beam = limits_.seed_beam;
        beam.beam_level = 20000;
        beam.prune = false;
        ExplicitSearch s(*p_.w, o_, budget_, beam, {}, stored_);
        std::vector<WcrtAnswer> found = s.run().wcrt;
        for (int op = 0; op < p_.n; ++op) {
            if (!s.best_[op].found) continue;
            best_[op] = {true, true, s.best_[op].response, 0, {}};
            seed_.keep(op, *found[op].lower, std::make_shared<const WitnessScenario>(std::move(*found[op].witness)));
        }
        stats_.seed_elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0_);
    }

    std::string explore() {
        if (budget_.expired()) return "timeout";
        levels_.resize(p_.n + 1);
        State s0 = initial_state(p_);
        canonicalise(p_, s0);
        records_.add(0, {});
        levels_[0] = std::make_unique<Level>();
        const Encoded e0 = encode(p_, s0);
        issue_bytes(e0.issues, scratch_issues_);
        levels_[0]->states.add(e0.key, std::hash<std::string_view>{}(e0.key), scratch_issues_, s0.now, 0,
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
            // Chunks small enough to keep every worker busy on a small level, large enough that
            // handing them over costs nothing on a large one.
            const std::size_t chunk = std::clamp<std::size_t>(size / (static_cast<std::size_t>(threads_) * 16), 1, 256);
            const std::size_t count = (size + chunk - 1) / chunk;
            std::string stop;
            run_ordered_chunks(
                count, threads_, static_cast<std::size_t>(threads_) * 8,
                [&](std::size_t c, ChunkOutput& out) {
                    expand_chunk(level, here, c * chunk, std::min(size, (c + 1) * chunk), out);
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
                          std::to_string(records_.parent.size()) + " states stored");
        }
        return "";
    }

    // Runs on a worker thread: reads only the level being expanded (no state of it changes while
    // it is expanded: children go to later levels) and the problem; writes only `out`.
    void expand_chunk(int level, const LevelStore& store, std::size_t first, std::size_t last, ChunkOutput& out) const {
        State base, work;
        Encoded enc;
        std::string scratch;
        for (std::size_t index = first; index < last; ++index) {
            const LevelStore::Entry& e = store[static_cast<std::uint32_t>(index)];
            if (!e.alive) continue;
            ++out.expansions;
            if (budget_.expired()) {
                out.stop = "timeout";
                return;
            }
            decode(p_, store.key(e), e.now, store.issues(e), base);
            if (pruning() && drain_.prunable(base, lb_, lb_found_)) {  // the answers rose since it was stored
                ++out.pruned;
                continue;
            }
            const std::uint32_t from = e.record;
            DepthFirstDecider d;
            do {
                ++out.steps;
                work = base;
                StepOutcome so;
                try {
                    so = step(p_, work, d, nullptr, &budget_);
                } catch (const BudgetExhausted& stopped) {
                    out.stop = to_string(stopped.reason);
                    return;
                }
                if (so.responses.empty() && !so.child) continue;
                const auto choice_at = static_cast<std::uint32_t>(out.choices.size());
                const auto choice_len = static_cast<std::uint32_t>(d.choice.size());
                out.choices.insert(out.choices.end(), d.choice.begin(), d.choice.end());
                for (const auto& [op, r] : so.responses) out.responses.push_back({op, r, from, choice_at, choice_len});
                if (!so.child) continue;
                if (pruning() && drain_.prunable(work, lb_, lb_found_)) {
                    ++out.pruned;
                    continue;
                }
                canonicalise(p_, work);
                const int to = work.level();
                if (to <= level) throw std::logic_error("exact engine: a macro step determined nothing");
                encode(p_, work, enc);
                ChunkOutput::Child c;
                c.level = to;
                c.hash = std::hash<std::string_view>{}(enc.key);
                c.now = work.now;
                c.from = from;
                c.choice_at = choice_at;
                c.choice_len = choice_len;
                c.bytes_at = static_cast<std::uint32_t>(out.bytes.size());
                c.key_len = static_cast<std::uint32_t>(enc.key.size());
                issue_bytes(enc.issues, scratch);
                c.issues_len = static_cast<std::uint32_t>(scratch.size());
                out.bytes += enc.key;
                out.bytes += scratch;
                if (limits_.beam > 0) {
                    c.lateness = lateness(work);
                    const std::size_t before = out.bytes.size();
                    for (int i = 0; i < p_.n; ++i)
                        out.bytes.push_back(
                            work.ops[i].phase == Phase::determined || work.ops[i].phase == Phase::completed ? '1'
                                                                                                            : '0');
                    c.set_len = static_cast<std::uint32_t>(out.bytes.size() - before);
                }
                out.children.push_back(c);
            } while (d.advance());
        }
    }

    // On the calling thread, chunk after chunk in order: responses, then children.
    std::string merge(const ChunkOutput& out) {
        stats_.expansions += out.expansions;
        stats_.steps += out.steps;
        stats_.pruned += out.pruned;
        for (const ChunkOutput::Response& r : out.responses) {
            Best& b = best_[r.op];
            if (!b.found || r.response > b.response)
                b = {true, false, r.response, r.from, out.choice(r.choice_at, r.choice_len)};
        }
        for (const ChunkOutput::Child& c : out.children) {
            insert(out, c);
            if (limits_.max_states > 0 && static_cast<long long>(records_.parent.size()) >= limits_.max_states)
                return "state budget";
        }
        // The stored levels and parent links stay within the budget's memory: the search stops
        // there, its answers so far replayed lower bounds (the levels are freed before the
        // witnesses are rebuilt), instead of meeting --max-memory's hard limit.
        if (bytes_in_use() > budget_.memory_bytes) return to_string(StopReason::memory);
        budget_.counters().states.store(records_.parent.size(), std::memory_order_relaxed);  // for progress
        if (stored_.reached && !signalled_ && records_.parent.size() >= stored_.states) {
            signalled_ = true;
            stored_.reached();
        }
        return out.stop;
    }

    void insert(const ChunkOutput& out, const ChunkOutput::Child& c) {
        if (!levels_[c.level]) levels_[c.level] = std::make_unique<Level>();
        Level& L = *levels_[c.level];
        LevelStore& store = L.states;
        const std::string_view key = out.key(c), issues = out.issues(c);
        read_issues(issues, new_issues_);
        const std::uint32_t first = store.find(key, c.hash);
        for (std::uint32_t i = first; i != LevelStore::none; i = store[i].next_same) {
            if (!store[i].alive) continue;
            read_issues(store.issues(store[i]), other_issues_);
            if (dominates(other_issues_, new_issues_)) {
                ++stats_.dominated;
                return;
            }
        }
        for (std::uint32_t i = first; i != LevelStore::none; i = store[i].next_same) {
            if (!store[i].alive) continue;
            read_issues(store.issues(store[i]), other_issues_);
            if (dominates(new_issues_, other_issues_)) {
                store[i].alive = false;
                ++stats_.dominated;
            }
        }
        const auto index = static_cast<std::uint32_t>(store.size());
        if (limits_.beam > 0 && !admit_to_beam(L, c.lateness, out.set(c), index)) return;
        if (limits_.beam > 0 && limits_.beam_level > 0 && !admit_to_level_cap(L, index)) {
            undo_beam_admission(L, out.set(c));
            return;
        }
        store.add(key, c.hash, issues, c.now, records_.add(c.from, out.choice(c.choice_at, c.choice_len)), first);
    }

    std::size_t bytes_in_use() const {
        std::size_t bytes = records_.bytes();
        for (const auto& level : levels_)
            if (level) bytes += level->bytes(static_cast<std::size_t>(p_.n));
        return bytes;
    }

    // How late a state is, for the beam: over every thread slot of every SM, the instant it is
    // available again (a running block's end, else `now`), summed in units of 32 threads. A later
    // state tends to delay what is still to come more; a heuristic only (a pointwise later state
    // is not always worse).
    std::int64_t lateness(const State& s) const {
        const std::int64_t slots = p_.w->platform.threads_per_sm / 32;
        std::int64_t sum = 0;
        for (const auto& blocks : s.sm) {
            std::int64_t used = 0;
            for (const RunningBlock& b : blocks) {
                const std::int64_t w = b.threads / 32;
                sum += b.end * w;
                used += w;
            }
            sum += s.now * std::max<std::int64_t>(0, slots - used);
        }
        return sum;
    }

    // Beam: at most `beam` alive states per set of determined operations; a newcomer replaces
    // the earliest one (smallest lateness) when it is later, else it is dropped.
    bool admit_to_beam(Level& L, std::int64_t late, std::string_view set, std::uint32_t index) {
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
    void undo_beam_admission(Level& L, std::string_view set) {
        std::vector<std::uint32_t>& kept = L.beams[std::string(set)];
        kept.pop_back();
        if (evicted_ != LevelStore::none) {
            L.states[evicted_].alive = true;
            kept.push_back(evicted_);
        }
    }

    // The per-level cap of the beam: the latest states of the level (lateness, set by admit_to_beam).
    bool admit_to_level_cap(Level& L, std::uint32_t index) {
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

    void answer(int op, const std::string& stop, WcrtAnswer& a) {
        a.op = op;
        // Intervals and windows: the maximum over the tick grid is attained by a replayed scenario,
        // but the supremum over the real intervals may lie between grid points (docs/decisions.md):
        // a lower bound, never exact, and no upper bound.
        const bool exact = stop.empty() && !p_.ranges;
        a.status = exact ? WcrtStatus::exact : WcrtStatus::unknown;
        a.unknown_reason = stop.empty() && p_.ranges ? "grid" : stop;
        const Best& b = best_[op];
        if (!b.found) {
            if (stop.empty()) throw std::logic_error("exact engine: a complete search never determined an operation");
            return;
        }
        if (b.seeded) {  // nothing better than the seeding run's answer (replayed there)
            a.lower = seed_.best()[op];
            a.witness = seed_.kept(op);
            if (exact) a.upper = a.lower;
            return;
        }
        std::vector<std::vector<int>> steps = records_.path(b.parent);
        steps.push_back(b.last_step);
        const WitnessScenario x = reconstruct_witness(p_, steps);
        const Time response = p_.times.to_time(b.response);
        replay_witness(*p_.w, x, op, response);
        a.lower = response;
        a.witness = x;
        if (exact) a.upper = response;
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
    std::vector<std::unique_ptr<Level>> levels_;
    int threads_;
    DrainBound drain_;
    search::BestScenarios seed_;
    std::vector<std::int64_t> lb_;
    std::vector<char> lb_found_;
    Records records_;
    ExactStats stats_;
    std::string scratch_issues_;
    std::vector<std::int64_t> new_issues_, other_issues_;
    std::uint32_t evicted_ = LevelStore::none;  // the state the last beam admission evicted, if any
};

}  // namespace

ExactResult exact_wcrt(const Workload& w, const EngineOptions& o, const Budget& budget,
                       const ExactSearchOptions& options, const ProgressSink& progress, const StatesSignal& stored) {
    ExplicitSearch s(w, o, budget, options, progress, stored);
    return s.run();
}

}  // namespace gpuwcrt
