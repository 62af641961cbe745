#pragma once
// One macro step of the exact engine (docs/theory/exact-engine.md, "Transition"): from a state, apply
// docs/theory/semantics.md §4 instant by instant until an operation becomes determined (a kernel fully dispatched,
// a copy started), branching where docs/theory/semantics.md §5 leaves a choice. This is the engine's copy of the
// rules of sim/rules.cpp; each function says which rule it implements, and
// tests/test_exact_engine.cpp checks the whole against the simulator (through enumeration).
#include <chrono>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/budget.hpp"
#include "solver/exact/state.hpp"

namespace gpuwcrt::exact {

// Resolves the choices of one step: the explorer enumerates them depth first, the witness
// reconstruction replays recorded ones. `pick(n)` returns an option in [0, n).
class Decider {
public:
    virtual ~Decider() = default;
    virtual int pick(int options) = 0;
};

// Every choice of a step, depth first: rerun the step with a prefix of choices, extend it with
// the first option, then advance the deepest choice that has options left (advance() false:
// every choice sequence was taken).
class DepthFirstDecider : public Decider {
public:
    int pick(int options) override {
        if (depth_ == choice.size()) {
            choice.push_back(0);
            options_.push_back(options);
        }
        return choice[depth_++];
    }
    bool advance() {
        depth_ = 0;
        while (!choice.empty() && choice.back() + 1 >= options_.back()) {
            choice.pop_back();
            options_.pop_back();
        }
        if (choice.empty()) return false;
        ++choice.back();
        return true;
    }
    std::vector<int> choice;  // the choices of the step last run

private:
    std::vector<int> options_;
    std::size_t depth_ = 0;
};

// What witness reconstruction needs to see of a step (SM positions are those of the state the
// step started from; the caller maps them to real SM ids).
class Observer {
public:
    virtual ~Observer() = default;
    virtual void issued(int op, std::int64_t now) = 0;    // G1, in launch order (eager mode)
    virtual void joined(int op, std::int64_t now) = 0;    // G2/C1
    virtual void picked(int op) = 0;                      // became the head of its queue
    virtual void block(int kernel, int sm_position) = 0;  // next block of `kernel`, in index order
    // The duration of that block / of a copy that starts, in ticks (intervals: the value chosen).
    virtual void timed(int op, std::int64_t duration) = 0;
};

struct StepOutcome {
    bool child = false;                                   // false: nothing happens any more (every operation completed)
    std::vector<std::pair<int, std::int64_t>> responses;  // operations determined in this step
};

// Advances `s` in place. With a budget, the clock is read every 4096 instants and
// BudgetExhausted thrown once its deadline has passed: a step can take as many instants as a
// kernel has blocks (10^9 of them, say), so the caller's per-step clock checks alone would not
// keep --timeout.
StepOutcome step(const Problem& p, State& s, Decider& d, Observer* ob = nullptr, const Budget* budget = nullptr);

}  // namespace gpuwcrt::exact
