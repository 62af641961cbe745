#pragma once
// One state of the exact engine at a macro-step boundary (docs/theory/exact-engine.md, "State"):
// int64 ticks, only what the future of docs/theory/semantics.md §4 depends on, plus the issue instants that the
// responses still to come depend on.
#include <array>
#include <compare>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "solver/exact/problem.hpp"

namespace gpuwcrt::exact {

enum class Phase : std::uint8_t {
    unknown,     // its issue instant is not known yet (stream predecessor not issued/completed)
    pending,     // will be issued at `issue`
    issued,      // in its stream queue (G1), not yet in an EE or the CE queue
    queued,      // in its EE queue (kernel, `aux` blocks dispatched) or the CE queue (copy)
    determined,  // kernel fully dispatched / copy started: completes at `aux`; response known
    completed
};

struct OpState {
    Phase phase = Phase::unknown;
    std::int64_t issue = 0;  // pending: the instant it will be issued; from issued on: its issue instant
    std::int64_t aux = 0;    // queued kernel: blocks dispatched; determined: completion instant
    std::int64_t seq = 0;    // launch position (eager mode only), from issued until completed
    // Queued kernel with blocks dispatched, when durations vary (Problem::ranges): the latest end
    // of its blocks so far (its completion is the latest end of all of them).
    std::int64_t last_end = 0;
};

// The blocks of one SM that end at one instant, aggregated: the future depends only on how much
// of each resource is freed when (not on which kernels' blocks free it), so states that differ
// only in that merge. The resident-block count is kept only where it can bind
// (Problem::count_binds).
struct RunningBlock {
    std::int64_t end = 0;
    std::int64_t threads = 0, shared_mem = 0, registers = 0, blocks = 0;
    auto operator<=>(const RunningBlock&) const = default;
};

// Operations that joined one queue at the same instant with the same issue instant: their
// order is the launch order among them, still open (lazy mode); fixed when one becomes the head.
using Group = std::vector<int>;

struct Queue {
    int head = -1;              // a partly dispatched kernel: it stays the head (X1)
    std::vector<Group> groups;  // in queue order
    bool empty() const { return head < 0 && groups.empty(); }
};

struct State {
    std::int64_t now = -1;  // -1: nothing has happened yet
    bool mid = false;       // inside step 5 at `now`: a kernel has just been fully dispatched
    int rr_last = -1;       // round-robin policy: the SM used last
    std::int64_t next_seq = 0;
    std::vector<OpState> ops;
    std::array<Queue, 3> queues;
    std::vector<std::vector<RunningBlock>> sm;  // per SM, by end instant, one entry per instant

    int level() const;  // operations determined or completed
};

State initial_state(const Problem& p);

// Canonical form (SMs are interchangeable unless a fixed policy looks at their index; groups are
// sets; launch positions only count relative to each other). Returns, per new SM position, the
// SM position it had before.
std::vector<int> canonicalise(const Problem& p, State& s);

// What merging and dominance compare (docs/theory/exact-engine.md, "Merge and dominance"): `key` is
// every part of the state that the future depends on, times relative to `now` (and `now` itself
// unless no absolute issue instant lies ahead); `issues` is, per issued but not yet determined
// operation in index order, its issue instant relative to `now`.
struct Encoded {
    std::string key;
    std::vector<std::int64_t> issues;
};
Encoded encode(const Problem& p, const State& s);
void encode(const Problem& p, const State& s, Encoded& into);  // reuses `into`'s buffers
// The inverse of encode, into `out` (its vectors' capacity is reused); `issue_bytes` holds
// `issues` as varints (varint.hpp).
void decode(const Problem& p, std::string_view key, std::int64_t now, std::string_view issue_bytes, State& out);

// Whether a state with `a` as issue vector has, for the same key, every future response at least
// as large as one with `b`: pointwise a <= b (issued earlier, same future).
bool dominates(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b);

}  // namespace gpuwcrt::exact
