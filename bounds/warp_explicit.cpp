#include "bounds/warp_explicit.hpp"

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

class Search {
public:
    Search(const WarpProblem& p, WarpGoal goal) : step_(p), goal_(goal) {}

    // Cycles still to come until the last issue, under the best choice for the goal.
    int value(const WarpState& s) {
        if (step_.finished(s)) return 0;
        if (auto it = memo_.find(s); it != memo_.end()) return it->second;
        int best = -1;
        for (const auto& x : step_.successors(s)) {
            const int v = 1 + value(step_.apply(s, x));
            if (best < 0 || (goal_ == WarpGoal::worst ? v > best : v < best)) best = v;
        }
        memo_.emplace(s, best);
        return best;
    }

    WarpExtreme run() {
        WarpExtreme out;
        WarpState s = step_.initial();
        out.makespan = value(s);
        // Replay: some successor always realises the memoised value.
        while (!step_.finished(s)) {
            const int want = value(s) - 1;
            for (const auto& x : step_.successors(s)) {
                WarpState n = step_.apply(s, x);
                if (value(n) == want) {
                    out.issues.push_back(x);
                    s = std::move(n);
                    break;
                }
            }
        }
        out.states = memo_.size();
        return out;
    }

private:
    WarpStepper step_;
    WarpGoal goal_;
    std::unordered_map<WarpState, int, StateHash> memo_;
};

}  // namespace

WarpExtreme explicit_extreme(const WarpProblem& problem, WarpGoal goal) { return Search(problem, goal).run(); }

}  // namespace gpuwcrt
