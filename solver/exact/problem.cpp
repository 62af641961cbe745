#include "solver/exact/problem.hpp"

#include "sim/simulate.hpp"

#include <algorithm>
#include <optional>

#include "model/checked_int.hpp"

namespace gpuwcrt::exact {

void require_exact_scope(const Workload& w, const IntegerTimes& t) {
    // Over a real interval the worst response is a supremum that need not be attained
    // (docs/decisions/0011-exact-engine-grid.md), so the engine takes every value of the tick grid (1/scale) and its
    // answers are lower bounds; the grid must stay small enough to search.
    std::optional<std::int64_t> product = 1;
    const Operation* widest = nullptr;
    for (std::size_t i = 0; i < w.ops.size() && product; ++i) {
        const Operation& op = w.ops[i];
        const std::int64_t values = t.hi[i] - t.lo[i] + 1;
        for (std::int64_t b = 0; b < (op.is_kernel() ? op.blocks : 1) && product && values > 1; ++b) {
            product = checked_mul(*product, values);
            widest = &op;
            if (product && *product > max_grid_product) product.reset();
        }
        if (product && op.issue.is_static() && t.issue_hi[i] > t.issue_lo[i]) {
            product = checked_mul(*product, t.issue_hi[i] - t.issue_lo[i] + 1);
            widest = &op;
            if (product && *product > max_grid_product) product.reset();
        }
    }
    if (!product)
        throw InputError(widest->where, "with '" + widest->name + "' the time grid of the intervals and windows (" +
                                            "every value in steps of 1/" + std::to_string(t.scale) +
                                            ", for every block) has more than " + std::to_string(max_grid_product) +
                                            " combinations: the exact engine refuses it; use --engine bounds for a "
                                            "proven upper bound");
    // With a NULL stream, launch order (N1/N2) and waits can hold each other up; the engine's
    // eager mode is not differentially tested with waits, so it refuses them.
    if (w.null_stream() >= 0)
        for (const Operation& op : w.ops)
            if (!op.wait.empty())
                throw InputError(op.where, "'" + op.name +
                                               "' waits on another operation in a workload with a NULL stream: the "
                                               "exact engine refuses it (--engine enumerate ranges over it)");
    // Its states name each wait's operation; which frame a wait across rates is on, the launch
    // order decides as the run goes.
    for (const Operation& op : w.ops)
        if (!op.wait_latest.empty())
            throw InputError(op.where, "'" + op.name +
                                           "' waits on the most recent frame of a stream of another period: the exact "
                                           "engine does not range over which frame that is");
    // Every witness is replayed by the simulator, which refuses more blocks than this (a search
    // step also takes one instant per block end, so such a grid would not keep --timeout).
    std::int64_t total = 0;
    for (const Operation& op : w.ops) {
        if (!op.is_kernel()) continue;
        if (op.blocks > max_simulated_blocks - total)
            throw InputError(op.where, "kernel '" + op.name + "' brings the workload to more than " +
                                           std::to_string(max_simulated_blocks) +
                                           " blocks, the most whose witnesses the simulator can replay; the exact "
                                           "engine refuses it (--engine bounds or smt may bound it)");
        total += op.blocks;
    }
}

Problem make_problem(const Workload& w, Policy policy) {
    Problem p;
    p.w = &w;
    p.times = integer_times(w);
    require_exact_scope(w, p.times);
    p.policy = policy;
    p.n = static_cast<int>(w.ops.size());
    p.copy_engines = w.platform.copy_engines;
    p.null_stream = w.null_stream();
    p.eager = p.null_stream >= 0;
    p.stream.resize(p.n);
    p.next_in_stream.assign(p.n, -1);
    p.queue.resize(p.n);
    p.demand_class.assign(p.n, -1);
    p.kernel.resize(p.n);
    p.blocks.resize(p.n);
    p.duration.resize(p.n);
    p.duration_lo.resize(p.n);
    p.waits.resize(p.n);
    p.completion_observed.assign(p.n, 0);
    std::vector<int> last(w.streams.size(), -1);
    for (int i = 0; i < p.n; ++i) {
        const Operation& op = w.ops[i];
        p.stream[i] = op.stream;
        if (last[op.stream] >= 0) p.next_in_stream[last[op.stream]] = i;
        else p.first_ops.push_back(i);
        last[op.stream] = i;
        p.kernel[i] = op.is_kernel();
        p.blocks[i] = op.is_kernel() ? op.blocks : 0;
        p.duration[i] = p.times.hi[i];
        p.duration_lo[i] = p.times.lo[i];
        p.waits[i] = op.wait;
        for (const int d : op.wait) p.completion_observed[d] = 1;
        p.ranges = p.ranges || p.times.lo[i] < p.times.hi[i] ||
                   (op.issue.is_static() && p.times.issue_lo[i] < p.times.issue_hi[i]);
        if (!op.is_kernel()) {
            p.queue[i] = ce;
            continue;
        }
        p.queue[i] = w.streams[op.stream].priority == Priority::high ? ee_high : ee_low;
        const BlockDemand d = op.demand();
        auto same = [&](const BlockDemand& c) {
            return c.threads == d.threads && c.shared_mem == d.shared_mem && c.registers == d.registers;
        };
        auto found = std::find_if(p.classes.begin(), p.classes.end(), same);
        p.demand_class[i] = static_cast<int>(found - p.classes.begin());
        if (found == p.classes.end()) p.classes.push_back(d);
    }
    std::int64_t smallest = 0;
    for (const BlockDemand& d : p.classes) smallest = smallest == 0 ? d.threads : std::min(smallest, d.threads);
    p.count_binds = smallest == 0 || w.platform.threads_per_sm / smallest > w.platform.blocks_per_sm_max;
    return p;
}

}  // namespace gpuwcrt::exact
