#include "solver/warp/warp_frontier.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <mutex>
#include <system_error>
#include <new>
#include <thread>

#include "solver/warp/warp_key_set.hpp"
#include "solver/warp/warp_packed_state.hpp"

namespace gpuwcrt {
namespace {

constexpr std::uint32_t none = 0xFFFFFFFFu;

// One thread's share of expanding a frontier: the distinct successors it met and, if some
// successor finished, the smallest index of a state it came from.
struct Expansion {
    explicit Expansion(std::size_t words) : next(words) {}
    WarpKeySet next;
    std::uint32_t finisher = none;
};

class Sweep {
public:
    Sweep(const WarpProblem& p, const Budget& budget, const WarpFrontierOptions& o)
        : step_(p), pack_(step_), budget_(budget), options_(o) {
        issue_bytes_ = static_cast<std::size_t>(step_.length()) * sizeof(std::uint16_t) + 48;
        step_.limit_successors(budget.memory_bytes / issue_bytes_ + 1, &budget);
    }

    WarpExtremes run() {
        WarpExtremes out;
        std::vector<std::uint64_t> key(pack_.words());
        WarpKeySet cur(pack_.words());
        pack_.pack(step_.initial(), key.data());
        cur.insert(key.data(), none);
        int cycle = 0;
        std::optional<int> best;  // the first cycle at which a state finishes
        std::uint32_t best_parent = none;
        std::size_t states = 0;
        out.best.stopped = out.worst.stopped = StopReason::timeout;  // until settled
        try {
            while (cur.size() > 0) {
                out.peak_frontier = std::max(out.peak_frontier, cur.size());
                states += cur.size();
                Expansion e = expand(cur);
                ++cycle;
                if (!best && e.finisher != none) {
                    best = cycle;
                    best_parent = e.finisher;
                    out.best.stopped.reset();
                    out.best.makespan = cycle;
                    out.best.states = states;
                }
                if (options_.witness) {
                    cur.freeze();
                    kept_bytes_ += cur.bytes();
                    levels_.push_back(std::move(cur));
                }
                if (options_.witness && best == cycle) out.best.issues = rebuild(*best - 1, best_parent);
                cur = std::move(e.next);
                if (best && options_.best_only) break;
            }
            if (cur.size() == 0) {
                out.worst.stopped.reset();
                out.worst.makespan = cycle;
                out.worst.states = states;
            }
            if (options_.witness && !out.worst.stopped) out.worst.issues = rebuild(cycle - 1, 0);
        } catch (const BudgetExhausted& s) {
            unsettle(out, s.reason);
        } catch (const std::bad_alloc&) {
            unsettle(out, StopReason::memory);
        }
        if (out.best.stopped) out.best.states = states;
        if (out.worst.stopped) out.worst.states = states;
        return out;
    }

private:
    // A goal without its value, or without the schedule asked for, is not settled.
    void unsettle(WarpExtremes& out, StopReason r) const {
        for (WarpExtreme* g : {&out.worst, &out.best})
            if (g->stopped || (options_.witness && g->issues.empty())) g->stopped = r, g->issues.clear();
    }

    // Every successor of every state of `cur`, with threads taking chunks of it in turn.
    // A thread per 1024 states at most: starting one costs about as much as a few states.
    Expansion expand(const WarpKeySet& cur) {
        const unsigned n =
            std::max(1u, std::min<unsigned>(options_.threads, static_cast<unsigned>(cur.size() / 1024 + 1)));
        std::vector<Expansion> parts(n, Expansion(pack_.words()));
        std::atomic<std::size_t> cursor{0};
        std::atomic<bool> stop{false};
        std::exception_ptr error;
        std::mutex error_mutex;
        const auto work = [&](Expansion& part) {
            try {
                WarpState s, t;
                std::vector<std::uint64_t> key(pack_.words());
                const std::size_t chunk = 16;  // states between two reads of the clock
                for (std::size_t from; !stop && (from = cursor.fetch_add(chunk)) < cur.size();) {
                    const std::size_t to = std::min(cur.size(), from + chunk);
                    for (std::size_t i = from; i < to; ++i) {
                        pack_.unpack(cur.key(i), s);
                        step_.for_each_successor(s, [&](const WarpIssue& x) {
                            step_.apply_into(s, x, t);
                            if (step_.finished(t)) {
                                part.finisher = std::min(part.finisher, static_cast<std::uint32_t>(i));
                                return;
                            }
                            pack_.pack(t, key.data());
                            part.next.insert(key.data(), static_cast<std::uint32_t>(i));
                        });
                    }
                    budget_.counters().states.fetch_add(to - from, std::memory_order_relaxed);
                    budget_.check(kept_bytes_ + cur.bytes() + part.next.bytes() * n);
                }
            } catch (...) {
                stop = true;
                const std::lock_guard<std::mutex> lock(error_mutex);
                if (!error) error = std::current_exception();
            }
        };
        if (n == 1) {
            work(parts[0]);
        } else {
            std::vector<std::thread> pool;
            try {
                for (unsigned t = 1; t < n; ++t) pool.emplace_back(work, std::ref(parts[t]));
            } catch (const std::system_error&) {  // no thread to spare: the started ones share the work
            }
            work(parts[0]);
            for (auto& t : pool) t.join();
        }
        if (error) std::rethrow_exception(error);
        Expansion out = std::move(parts[0]);
        for (unsigned t = 1; t < n; ++t) {
            out.finisher = std::min(out.finisher, parts[t].finisher);
            for (std::size_t i = 0; i < parts[t].next.size(); ++i)
                out.next.insert(parts[t].next.key(i), parts[t].next.parent(i));
            parts[t] = Expansion(1);  // free as we go
            budget_.check(kept_bytes_ + cur.bytes() + out.next.bytes());
        }
        return out;
    }

    // The issue vectors of a path from the initial state to state `index` of cycle `level`,
    // then one finishing step from it: parents give the states, and the issue of each step is
    // found again among the successors of its state.
    std::vector<WarpIssue> rebuild(int level, std::uint32_t index) {
        std::vector<std::uint32_t> chain(static_cast<std::size_t>(level) + 1);
        for (int k = level; k >= 0; --k) {
            chain[static_cast<std::size_t>(k)] = index;
            index = levels_[static_cast<std::size_t>(k)].parent(index);
        }
        std::vector<WarpIssue> issues;
        WarpState s, t;
        std::vector<std::uint64_t> key(pack_.words());
        for (int k = 0; k <= level; ++k) {
            pack_.unpack(levels_[static_cast<std::size_t>(k)].key(chain[static_cast<std::size_t>(k)]), s);
            const std::uint64_t* want =
                k < level ? levels_[static_cast<std::size_t>(k + 1)].key(chain[static_cast<std::size_t>(k + 1)])
                          : nullptr;
            bool found = false;
            for (const auto& x : step_.successors(s)) {
                step_.apply_into(s, x, t);
                if (want) {
                    if (step_.finished(t)) continue;
                    pack_.pack(t, key.data());
                    if (!std::equal(key.begin(), key.end(), want)) continue;
                } else if (!step_.finished(t)) {
                    continue;
                }
                issues.push_back(x);
                found = true;
                break;
            }
            if (!found) throw std::logic_error("frontier search: a recorded parent has no step to its child");
            if (issues.size() % 1024 == 0) budget_.check(kept_bytes_ + issues.size() * issue_bytes_);
        }
        return issues;
    }

    WarpStepper step_;
    WarpStatePacker pack_;
    const Budget& budget_;
    WarpFrontierOptions options_;
    std::vector<WarpKeySet> levels_;
    std::size_t kept_bytes_ = 0, issue_bytes_ = 0;
};

}  // namespace

WarpExtremes frontier_extremes(const WarpProblem& problem, const Budget& budget, const WarpFrontierOptions& options) {
    auto sweep = std::make_unique<Sweep>(problem, budget, options);
    WarpExtremes out = sweep->run();
    const auto timed_out = [](const WarpExtreme& e) { return e.stopped == StopReason::timeout; };
    if (budget.leave_table_on_timeout && (timed_out(out.worst) || timed_out(out.best)))
        (void)sweep.release();  // deliberately leaked: see Budget::leave_table_on_timeout
    return out;
}

}  // namespace gpuwcrt
