#include "bounds/abstraction/beam.hpp"

#include <memory>
#include <unordered_map>

#include "bounds/abstraction/transition.hpp"

namespace gpuwcrt::abstraction {
namespace {

struct Step {
    int op;
    std::vector<int> block_sm;
    std::shared_ptr<const Step> prev;
};

struct Entry {
    AbstractState x;
    std::shared_ptr<const Step> path;
    __int128 key;  // later states first: they delay whatever comes next most
};

__int128 lateness(const AbstractState& x) {
    __int128 k = static_cast<__int128>(x.ee_free.hi) * 64;
    for (const SmState& sm : x.sms)
        for (std::size_t u = 0; u < sm.units(); ++u) k += sm.hi(u);
    return k;
}

void keep(std::vector<Entry>& beam, Entry e, int width) {
    for (const Entry& b : beam)
        if (b.x == e.x) return;
    if (static_cast<int>(beam.size()) < width) {
        beam.push_back(std::move(e));
        return;
    }
    std::size_t lowest = 0;
    for (std::size_t i = 1; i < beam.size(); ++i)
        if (beam[i].key < beam[lowest].key) lowest = i;
    if (beam[lowest].key < e.key) beam[lowest] = std::move(e);
}

Workload at_one_end(const Workload& w, bool upper_ends) {
    Workload v = w;
    for (Operation& op : v.ops) {
        const Time t = upper_ends ? op.time.hi : op.time.lo;
        op.time = {t, t};
        if (op.issue.kind == IssueSpec::Kind::at) {
            const Time i = upper_ends ? op.issue.at.lo : op.issue.at.hi;
            op.issue.at = {i, i};
        }
    }
    return v;
}

WitnessScenario witness_of_path(const Workload& w, const Workload& points, const Step* last) {
    WitnessScenario x;
    x.sm.assign(w.ops.size(), {});
    x.block_time.assign(w.ops.size(), {});
    x.issue.assign(w.ops.size(), std::nullopt);
    for (const Step* s = last; s; s = s->prev.get()) {
        x.launch_order.insert(x.launch_order.begin(), s->op);
        x.sm[s->op] = s->block_sm;
    }
    for (std::size_t op = 0; op < w.ops.size(); ++op) {
        const Operation& o = w.ops[op];
        if (!o.time.is_point()) x.block_time[op].assign(o.is_kernel() ? o.blocks : 1, points.ops[op].time.hi);
        if (o.issue.kind == IssueSpec::Kind::at && !o.issue.at.is_point()) x.issue[op] = points.ops[op].issue.at.lo;
    }
    return x;
}

}  // namespace

std::vector<std::optional<BeamCandidate>> beam_candidates(const Workload& w, bool upper_ends, int width,
                                                          const Budget& budget) {
    const Workload points = at_one_end(w, upper_ends);
    const Problem p(points);
    const int n = static_cast<int>(w.ops.size());
    std::vector<std::optional<std::int64_t>> best(n);
    std::vector<std::shared_ptr<const Step>> best_path(n);
    std::unordered_map<Key, std::vector<Entry>, KeyHash> current, next;
    current[Key{}].push_back(
        {initial_state(points.platform.sms, p.total_units, points.platform.copy_engines, p.streams), nullptr, 0});
    std::vector<Successor> succ;
    BudgetPoll poll(budget, 16);
    for (int level = 0; level < n && !current.empty(); ++level) {
        next.clear();
        for (auto& [key, beam] : current) {
            for (Entry& e : beam) {
                if (poll.expired()) level = n;
                if (level == n) break;
                succ.clear();
                try {
                    successors(p, key.s, e.x, width, budget, succ, true);
                } catch (const BudgetExhausted&) {
                    level = n;  // as at the deadline above: the candidates so far stand
                    break;
                }
                for (Successor& t : succ) {
                    auto step = std::make_shared<const Step>(Step{t.op, std::move(t.block_sm), e.path});
                    const std::int64_t response = t.done.hi - t.issue.lo;  // points: the concrete response
                    if (!best[t.op] || response > *best[t.op]) best[t.op] = response, best_path[t.op] = step;
                    const __int128 late = lateness(t.state);
                    const Key to{with(key.s, t.op), t.state.low_op, static_cast<int>(t.state.low_blocks.lo)};
                    keep(next[to], Entry{std::move(t.state), std::move(step), late}, width);
                }
            }
        }
        current.swap(next);
    }
    std::vector<std::optional<BeamCandidate>> out(n);
    for (int op = 0; op < n; ++op)
        if (best[op])
            out[op] = BeamCandidate{p.times.to_time(*best[op]), witness_of_path(w, points, best_path[op].get())};
    return out;
}

}  // namespace gpuwcrt::abstraction
