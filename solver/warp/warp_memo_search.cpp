#include "solver/warp/warp_memo_search.hpp"

#include <memory>
#include <new>
#include <unordered_map>

namespace gpuwcrt {
namespace {

struct StateHash {
    std::size_t operator()(const WarpState& s) const {
        std::size_t h = 1469598103934665603ull;  // FNV-1a over the counts
        for (auto v : s) {
            h ^= v;
            h *= 1099511628211ull;
        }
        return h;
    }
};

// Heap bytes of one count vector, with the allocator's header and rounding.
std::size_t vector_bytes(std::size_t entries) { return (entries * sizeof(std::uint16_t) + 15) / 16 * 16 + 16; }

class MemoSearch {
public:
    MemoSearch(const WarpProblem& p, WarpGoal goal, const Budget& budget) : step_(p), goal_(goal), budget_(budget) {
        const std::size_t state = vector_bytes(step_.initial().size());
        memo_entry_bytes_ = state + 80;  // hash node: key vector, value, next pointer, cached hash, bucket
        issue_bytes_ = vector_bytes(static_cast<std::size_t>(step_.length())) + sizeof(WarpIssue);
        step_.limit_successors(budget.memory_bytes / issue_bytes_ + 1, &budget);
    }

    std::size_t states() const { return memo_.size(); }

    WarpExtreme run() {
        WarpExtreme out;
        WarpState s = step_.initial();
        out.makespan = solve(s);
        // Replay: some successor always realises the memoised value.
        while (!step_.finished(s)) {
            const int want = known(s) - 1;
            for (const auto& x : step_.successors(s)) {
                WarpState n = step_.apply(s, x);
                if (known(n) == want) {
                    out.issues.push_back(x);
                    s = std::move(n);
                    break;
                }
            }
            if (out.issues.size() % 1024 == 0) budget_.check(bytes_in_use() + out.issues.size() * issue_bytes_);
        }
        out.states = memo_.size();
        return out;
    }

private:
    struct Frame {
        WarpState state;
        std::vector<WarpIssue> next;  // successors still to try
        std::size_t tried = 0;
        int best = -1;  // best value over the successors tried
    };

    int known(const WarpState& s) const { return step_.finished(s) ? 0 : memo_.at(s); }

    void fold(Frame& f, int v) const {
        if (f.best < 0 || (goal_ == WarpGoal::worst ? v > f.best : v < f.best)) f.best = v;
    }

    void push(WarpState s) {
        Frame f{std::move(s), {}, 0, -1};
        f.next = step_.successors(f.state);
        stack_bytes_ += frame_bytes(f);
        stack_.push_back(std::move(f));
        // Every frame: with thousands of warps one successor list costs far more than a clock
        // read, and checking every 256th frame let a point overrun --timeout by a second.
        budget_.check(bytes_in_use());
    }

    std::size_t frame_bytes(const Frame& f) const {
        return memo_entry_bytes_ + f.next.size() * issue_bytes_ + sizeof(Frame);
    }
    std::size_t bytes_in_use() const { return memo_.size() * memo_entry_bytes_ + stack_bytes_; }

    // Cycles still to come from `root` until the last issue, under the best choice for the goal.
    int solve(const WarpState& root) {
        if (step_.finished(root)) return 0;
        push(root);
        for (;;) {
            Frame& f = stack_.back();
            if (f.tried < f.next.size()) {
                WarpState n = step_.apply(f.state, f.next[f.tried++]);
                if (step_.finished(n)) fold(f, 1);
                else if (auto it = memo_.find(n); it != memo_.end()) fold(f, 1 + it->second);
                else push(std::move(n));  // invalidates f
                continue;
            }
            const int v = f.best;
            memo_.emplace(std::move(f.state), v);
            stack_bytes_ -= frame_bytes(f);
            stack_.pop_back();
            budget_.counters().states.fetch_add(1, std::memory_order_relaxed);
            budget_.check(bytes_in_use());
            if (stack_.empty()) return v;
            fold(stack_.back(), 1 + v);
        }
    }

    WarpStepper step_;
    WarpGoal goal_;
    const Budget& budget_;
    std::unordered_map<WarpState, int, StateHash> memo_;
    std::vector<Frame> stack_;
    std::size_t stack_bytes_ = 0, memo_entry_bytes_ = 0, issue_bytes_ = 0;
};

}  // namespace

WarpExtreme memo_extreme(const WarpProblem& problem, WarpGoal goal, const Budget& budget) {
    WarpExtreme out;
    auto search = std::make_unique<MemoSearch>(problem, goal, budget);
    try {
        return search->run();
    } catch (const BudgetExhausted& e) {
        out.stopped = e.reason;
    } catch (const std::bad_alloc&) {
        out.stopped = StopReason::memory;
    }
    out.states = search->states();
    return out;
}

}  // namespace gpuwcrt
