#pragma once
// A sound upper bound, from one state, on the response of every kernel still open — the "drain
// bound" of docs/theory/exact-engine.md ("Pruning by bounds", with its proof). It holds only where the
// proof does: every operation a kernel, one EE queue (no high-priority stream), no NULL stream,
// and the open kernel already in the queue (then no later joiner can pass it: X1). The explorer
// drops a state when every open kernel's bound is at most the largest response already found for
// it: no scenario through the state can raise any answer.
#include <cstdint>
#include <vector>

#include "solver/exact/state.hpp"

namespace gpuwcrt::exact {

class DrainBound {
public:
    explicit DrainBound(const Problem& p);
    bool applies() const { return applies_; }
    // True when every open operation of `s` has a bound and it is at most `best[op]`
    // (`found[op]` false: nothing found yet, so never prunable).
    bool prunable(const State& s, const std::vector<std::int64_t>& best, const std::vector<char>& found) const;

private:
    // (ceil(blocks / P) + 1) * C: the time a kernel with `blocks` blocks still to dispatch can add,
    // P its blocks on an empty GPU.
    std::int64_t cost(int k, std::int64_t blocks) const;

    const Problem& p_;
    bool applies_ = false;
    std::vector<std::int64_t> per_gpu_;  // P: blocks of the kernel that fit on the empty GPU
};

}  // namespace gpuwcrt::exact
