#include "bounds/abstraction/explorer.hpp"

#include <algorithm>
#include <unordered_map>

#include "bounds/abstraction/merge.hpp"
#include "bounds/abstraction/transition.hpp"

namespace gpuwcrt::abstraction {
namespace {

// With `shift` (Problem::translation_invariant), a state may be replaced by itself shifted
// later (docs/theory/abstraction.md, "Time-shift merging"): containment and hulls try the earlier
// state shifted to the later one's ee_free.lo as well, and keep whichever is tighter.
struct StateOps {
    bool shift = false;

    static std::int64_t gap(const AbstractState& later, const AbstractState& earlier) {
        return later.ee_free.lo - earlier.ee_free.lo;
    }
    AbstractState hull(const AbstractState& a, const AbstractState& b) const {
        if (shift) {
            const std::int64_t d = gap(a, b);
            if (d > 0) {
                AbstractState s = shifted(b, d);
                if (abstraction::distance(a, s) < abstraction::distance(a, b)) return abstraction::hull(a, s);
            } else if (d < 0) {
                AbstractState s = shifted(a, -d);
                if (abstraction::distance(s, b) < abstraction::distance(a, b)) return abstraction::hull(s, b);
            }
        }
        return abstraction::hull(a, b);
    }
    bool contains(const AbstractState& o, const AbstractState& i) const {
        if (abstraction::contains(o, i)) return true;
        const std::int64_t d = gap(o, i);
        return shift && d > 0 && abstraction::contains(o, shifted(i, d));
    }
    std::int64_t distance(const AbstractState& a, const AbstractState& b) const {
        std::int64_t best = abstraction::distance(a, b);
        const std::int64_t d = gap(a, b);
        if (shift && d > 0) best = std::min(best, abstraction::distance(a, shifted(b, d)));
        if (shift && d < 0) best = std::min(best, abstraction::distance(shifted(a, -d), b));
        return best;
    }
};

using Level = std::unordered_map<Key, Bucket<AbstractState, StateOps>, KeyHash>;

// What a kept state holds, its vectors' contents included, each with the allocator's 16 bytes.
std::size_t state_bytes(const AbstractState& x) {
    constexpr std::size_t allocation = 16;
    std::size_t bytes = sizeof(AbstractState) + (x.engine_lo.capacity() + x.engine_hi.capacity()) * 8 +
                        (x.stream_issue.capacity() + x.stream_done.capacity()) * sizeof(Interval) +
                        x.low_sm.capacity() * sizeof(int) + x.sms.capacity() * sizeof(SmState) + 6 * allocation;
    for (const SmState& m : x.sms) bytes += m.v.capacity() * 8 + allocation;
    return bytes;
}

// A key's node in a level: the key (its words beyond 128 operations included), its bucket and
// the hash table's share.
std::size_t key_bytes(const Key& k) {
    constexpr std::size_t allocation = 16;
    const std::size_t heap = k.s.heap_bytes();
    return sizeof(Key) + sizeof(Bucket<AbstractState, StateOps>) + 48 + (heap ? heap + allocation : 0);
}

}  // namespace

ExploreResult explore(const Problem& p, const ExploreOptions& o, const Budget& budget) {
    ExploreResult r;
    const int n = static_cast<int>(p.w.ops.size());
    r.upper.assign(n, std::nullopt);
    Level current;
    auto cap_of = [&](const Key& k) {
        if (!o.caps) return o.states_per_set;
        const auto it = o.caps->find(k);
        return it == o.caps->end() ? o.states_per_set : it->second;
    };
    current
        .emplace(Key{}, Bucket<AbstractState, StateOps>(cap_of(Key{}), false,
                                                        StateOps{o.shift_merge && p.translation_invariant}))
        .first->second.add(initial_state(p.w.platform.sms, p.total_units, p.w.platform.copy_engines, p.streams));
    std::vector<Successor> succ;
    BudgetPoll poll(budget, 16);
    // The two levels in memory (and the graph, when recorded) stay within the budget's memory:
    // a round that would need more stops unfinished, as at the deadline, and the bounds of the
    // rounds before it stand.
    std::size_t current_bytes = key_bytes(Key{}) + state_bytes(current.begin()->second.kept().front()), graph_bytes = 0;
    for (int level = 0; level < n; ++level) {
        Level next;
        std::size_t next_bytes = 0;
        for (auto& [key, bucket] : current) {
            for (const AbstractState& x : bucket.kept()) {
                if (poll.expired()) return r;
                if (current_bytes + next_bytes + graph_bytes > budget.memory_bytes) {
                    r.out_of_memory = true;
                    return r;
                }
                ++r.states;
                budget.counters().states.fetch_add(1, std::memory_order_relaxed);
                succ.clear();
                try {
                    successors(p, key.s, x, o.partial_cap, budget, succ);
                } catch (const BudgetExhausted&) {
                    return r;  // as at the deadline above: incomplete
                }
                for (Successor& e : succ) {
                    ++r.edges;
                    auto& up = r.upper[e.op];
                    const std::int64_t response = e.done.hi - e.issue.lo;
                    if (!up || response > *up) up = response;
                    const Key to{with(key.s, e.op), e.state.low_op, 0};  // the block count is a range in the state
                    if (o.record_edges) {
                        std::vector<KeyEdge>& out = r.graph[key];
                        auto it = std::find_if(out.begin(), out.end(),
                                               [&](const KeyEdge& x) { return x.to == to && x.op == e.op; });
                        if (it == out.end()) {
                            out.push_back({to, e.op, response});
                            graph_bytes += sizeof(KeyEdge) + to.s.heap_bytes() + (out.size() == 1 ? key_bytes(key) : 0);
                        } else {
                            it->response = std::max(it->response, response);
                        }
                    }
                    auto slot = next.find(to);
                    if (slot == next.end()) {
                        slot =
                            next.emplace(to, Bucket<AbstractState, StateOps>(
                                                 cap_of(to), false, StateOps{o.shift_merge && p.translation_invariant}))
                                .first;
                        next_bytes += key_bytes(to);
                    }
                    const std::size_t kept = slot->second.kept().size(), bytes = state_bytes(e.state);
                    slot->second.add(std::move(e.state));
                    if (slot->second.kept().size() > kept) next_bytes += bytes;
                }
            }
        }
        for (const auto& [s, bucket] : next) r.merges += bucket.merges();
        r.widest_level = std::max(r.widest_level, next.size());
        current = std::move(next);
        current_bytes = next_bytes;
    }
    r.complete = true;
    for (int op = 0; op < n; ++op)
        if (!r.upper[op]) r.complete = false;  // never dispatched: a kernel that fits nowhere
    return r;
}

}  // namespace gpuwcrt::abstraction
