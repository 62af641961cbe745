#include "encode/block/encoding_size.hpp"

#include <algorithm>
#include <initializer_list>
#include <set>

namespace gpuwcrt {
namespace {

constexpr std::uint64_t saturated = std::uint64_t(1) << 62;
// Measured by bench/limits/smt_size.cpp with Z3 4.8.12 (bench/RESULTS.md, "memory"): a context
// takes 16 MiB; a constraint of the time-indexed encoding 500 to 750 bytes, of which 400 is
// taken (its terms are shared between constraints); the event encoding 400 per constraint with
// 100 per term of its sums at the least.
constexpr std::uint64_t context_bytes = std::uint64_t(16) << 20, bytes_per_constraint = 400, bytes_per_term = 100;

std::uint64_t times(std::initializer_list<std::uint64_t> factors) {
    std::uint64_t out = 1;
    for (std::uint64_t f : factors)
        if (__builtin_mul_overflow(out, f, &out) || out > saturated) return saturated;
    return out;
}

// A running count that saturates instead of wrapping.
struct Tally {
    std::uint64_t n = 0;
    void add(std::uint64_t x) { n = std::min(saturated, n + std::min(saturated, x)); }
    void add(std::initializer_list<std::uint64_t> factors) { add(times(factors)); }
};

std::uint64_t at_least_zero(std::int64_t x) { return x > 0 ? static_cast<std::uint64_t>(x) : 0; }

// Instants from `from` to the horizon, the horizon included.
std::uint64_t instants_from(const BlockProblem& p, std::int64_t from) { return at_least_zero(p.horizon - from + 1); }

// The kernel families: started, running-on, FIFO dispatch, greedy dispatch, A2, placement.
void count_block_families(const BlockProblem& p, Policy policy, Tally& c) {
    const auto sms = static_cast<std::uint64_t>(p.sms);
    const auto high = static_cast<std::uint64_t>(std::count(p.high.begin(), p.high.end(), 1));
    for (int k = 0; k < p.kernels(); ++k) {
        const std::uint64_t blocks = at_least_zero(p.blocks[k]);
        const std::uint64_t window = at_least_zero(p.horizon - p.issue[k]);  // started_ per block
        const std::uint64_t same_queue = (p.high[k] ? high : p.kernels() - high) - 1;
        if (p.sms != 2) c.add(blocks);                                // one SM each
        c.add({blocks, window});                                      // started is monotone
        c.add({blocks, sms, window + 1});                             // running on SM m at t
        c.add({blocks, window});                                      // FIFO: after the previous block
        c.add({window, same_queue});                                  // FIFO: after the kernels ahead in the queue
        c.add({blocks, window, sms});                                 // greedy dispatch
        if (p.has_priorities && !p.high[k]) c.add({blocks, window});  // A2
        if (policy == Policy::first_fit) c.add({blocks, window + 1, sms * (sms - 1) / 2});
        if (policy == Policy::most_room) c.add({blocks, window + 1, sms * (sms - 1), 8});
    }
    if (policy == Policy::round_robin) {
        std::uint64_t blocks = 0;
        for (std::int64_t g : p.blocks) blocks = std::min(saturated, blocks + at_least_zero(g));
        c.add({blocks, blocks, instants_from(p, 0), 3});  // the dispatch sequence, per pair
    }
    std::set<std::int64_t> demands;  // usage_at_least literals: one per SM, instant, resource, value
    for (const ScaledResource& r : p.resources) demands.insert(r.demand.begin(), r.demand.end());
    c.add({sms, instants_from(p, 0), p.resources.size(), demands.size() + 1});
}

// Block-time intervals and issue windows: order-encoded choices and "ended by t" per duration.
void count_range_families(const BlockProblem& p, Tally& c) {
    for (int o = 0; o < p.ops(); ++o) {
        if (p.issue_rule[o] == BlockProblem::IssueRule::at) c.add(at_least_zero(p.issue_hi[o] - p.issue_value[o] - 1));
        if (!p.duration_varies(o)) continue;
        const std::uint64_t units = p.kernel_of_op[o] >= 0 ? at_least_zero(p.blocks[p.kernel_of_op[o]]) : 1;
        const std::int64_t lo = p.duration_lo[o], hi = p.duration[o];
        const std::uint64_t ended = at_least_zero(p.horizon + hi - (p.issue_lb[o] + lo));
        c.add({units, at_least_zero(hi - lo - 1)});
        c.add({units, ended, at_least_zero(hi - lo + 1)});
    }
}

// The operation-level families (BlockProblem::extended): issues, joins, launch order, EE and CE
// order by join, copies.
void count_operation_families(const BlockProblem& p, Tally& c) {
    const auto n = static_cast<std::uint64_t>(p.ops());
    const auto kernels = static_cast<std::uint64_t>(p.kernels());
    const auto fixed = static_cast<std::uint64_t>(std::count(p.issue_fixed.begin(), p.issue_fixed.end(), 1));
    std::uint64_t copies = 0;
    for (int o = 0; o < p.ops(); ++o) {
        const std::uint64_t instants = instants_from(p, p.issue_lb[o]);
        if (!p.issue_fixed[o]) c.add(instants);  // G1
        c.add(instants);                         // G2 joins
        if (p.kernel_of_op[o] < 0) {
            ++copies;
            c.add(2 * instants);  // monotone start, started only once joined
        }
        // The launch order follows issues: one constraint for a pair of fixed issues, else one
        // per instant.
        if (p.issue_fixed[o]) c.add({fixed - 1}), c.add({n - fixed, instants});
        else c.add({n - 1, instants});
    }
    if (n > 2) c.add({n - 2, n, n - 1});                // the launch order is transitive
    c.add({kernels, kernels, instants_from(p, 0), 3});  // EE order by join, then launch
    c.add({copies, copies, instants_from(p, 0), 4});    // CE order likewise
    c.add({copies + 1, instants_from(p, 0)});           // copy engines
}

}  // namespace

std::uint64_t time_indexed_constraints(const BlockProblem& p, Policy policy) {
    Tally c;
    const auto kernels = static_cast<std::uint64_t>(p.kernels());
    if (kernels > 2) c.add({kernels - 2, kernels, kernels - 1});  // the EE order is transitive
    count_block_families(p, policy, c);
    if (p.extended()) {
        count_range_families(p, c);
        count_operation_families(p, c);
    } else {
        c.add({kernels, kernels, instants_from(p, 0), 2});  // joins and the EE order
    }
    return c.n;
}

std::uint64_t time_indexed_bytes(const BlockProblem& p, Policy policy) {
    Tally b;
    b.add(context_bytes);
    b.add({time_indexed_constraints(p, policy), bytes_per_constraint});
    return b.n;
}

std::uint64_t event_bytes(const BlockProblem& p, Policy policy) {
    std::uint64_t blocks = 0;
    for (std::int64_t g : p.blocks) blocks = std::min(saturated, blocks + at_least_zero(g));
    const auto kernels = static_cast<std::uint64_t>(p.kernels());
    const auto sms = static_cast<std::uint64_t>(p.sms);
    Tally constraints;
    if (kernels > 2) constraints.add({kernels - 2, kernels, kernels - 1});  // the EE order is transitive
    constraints.add({kernels, kernels, 3});                                 // joins and the EE order
    constraints.add({blocks, sms + 3});                                     // bounds, FIFO, fit, greedy
    // Every resource test sums a term per other block: fits on the chosen SM, and blocked on
    // every SM just before the start (greedy dispatch); a fixed policy tests other SMs too.
    const std::uint64_t tests = policy == Policy::chooser ? 1 + sms : 1 + sms + sms * sms * 2;
    Tally b;
    b.add(context_bytes);
    b.add({constraints.n, bytes_per_constraint});
    b.add({blocks, blocks, tests, std::max<std::uint64_t>(1, p.resources.size()), bytes_per_term});
    return b.n;
}

}  // namespace gpuwcrt
