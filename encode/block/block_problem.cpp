#include "encode/block/block_problem.hpp"

#include <climits>
#include <numeric>

#include "model/integer_time.hpp"
#include "model/issue_bounds.hpp"
#include "model/rounding.hpp"

namespace gpuwcrt {
namespace {

// Resource amounts become pseudo-Boolean coefficients, which Z3 takes as 32-bit ints; half
// of that leaves room for its sums. Past it the workload is an input the engine cannot encode.
void reject_wide_coefficients(const Workload& w, const BlockProblem& p) {
    constexpr std::int64_t limit = INT_MAX / 2;  // as BlockEncoding asserts
    for (const ScaledResource& r : p.all_resources) {
        if (r.capacity > limit)
            throw InputError({w.source, 0, 0}, "the SMT engine cannot encode the per-SM " + r.name + " capacity " +
                                                   std::to_string(r.capacity) +
                                                   " (after dividing by the common "
                                                   "factor of capacity and demands it must be at most 2^30 - 1); use "
                                                   "--engine enumerate or smaller [platform] limits");
        for (int k = 0; k < p.kernels(); ++k)
            if (r.demand[k] > limit)
                throw InputError(w.ops[p.op[k]].where, "the SMT engine cannot encode a per-block " + r.name +
                                                           " demand of " + std::to_string(r.demand[k]) +
                                                           " (at most 2^30 - 1 after dividing by the common factor); "
                                                           "use --engine enumerate");
    }
}

// Operation o's time `field` in ticks (model/integer_time.hpp).
std::int64_t checked(const ScaledTimes& t, int o, OpTime field, const Operation& op) {
    const auto v = t.fitting(workload_time_index(o, field));
    if (!v)
        throw InputError(op.where,
                         "times of this workload need integers beyond 2^50 after scaling to a common "
                         "denominator; the SMT engine does not support that resolution");
    return *v;
}

ScaledResource resource(const std::string& name, std::int64_t cap, std::vector<std::int64_t> demand) {
    std::int64_t g = cap;
    for (std::int64_t d : demand) g = std::gcd(g, d);
    if (g > 1) {
        cap /= g;
        for (auto& d : demand) d /= g;
    }
    return {name, cap, std::move(demand)};
}

// No block starts later than this (scaled). Greedy dispatch never idles while work waits:
// after the last issue, while the EE queue is not empty its head does not fit on any SM, so
// on every SM some resource r is used beyond cap_r - dmax_r; summed over SMs and integrated,
// the busy time T satisfies sms * T <= sum_r W_r / (cap_r - dmax_r + 1), W_r = sum of
// demand x block time. With one kernel per stream every kernel is in the EE queue from its
// issue on; with longer streams a kernel may wait for its predecessor, and the bound is the
// plain sum of all block times. docs/theory/encoding.md, "Horizon".
std::int64_t start_horizon(const BlockProblem& p) {
    if (p.extended()) {
        // Something runs (a block or a copy) at every instant before the end except while the
        // host waits: for a static issue instant (before the largest one) or for an
        // after_stream_idle delay (N1/N2 and C1 never leave the GPU idle: the operation
        // launched first among the unfinished ones can always join and start). So everything
        // is done by the largest static instant + all delays + all work. docs/theory/encoding.md.
        std::int64_t total = 0;
        for (int o = 0; o < p.ops(); ++o) {
            const int k = p.kernel_of_op[o];
            total += k >= 0 ? p.blocks[k] * p.block_time[k] : p.duration[o];
        }
        std::int64_t max_at = 0;
        for (int o = 0; o < p.ops(); ++o) {
            if (p.issue_rule[o] == BlockProblem::IssueRule::after_idle) total += p.issue_value[o];
            else max_at = std::max(max_at, p.issue_hi[o]);  // windows: their latest instant
        }
        return max_at + total;
    }
    std::int64_t max_issue = 0, work = 0, max_c = 0;
    bool one_per_stream = true;
    for (int k = 0; k < p.kernels(); ++k) {
        max_issue = std::max(max_issue, p.issue[k]);
        work += p.blocks[k] * p.block_time[k];
        max_c = std::max(max_c, p.block_time[k]);
        one_per_stream = one_per_stream && p.stream_pred[k] < 0;
    }
    if (!one_per_stream || p.resources.empty()) return max_issue + work;
    Time busy = 0;
    for (const ScaledResource& r : p.resources) {
        std::int64_t dmax = 0;
        Time w = 0;
        for (int k = 0; k < p.kernels(); ++k) {
            dmax = std::max(dmax, r.demand[k]);
            w += Time(r.demand[k] * p.block_time[k]) * p.blocks[k];
        }
        busy += w / Time(p.sms * (r.capacity - dmax + 1));
    }
    return std::min(max_issue + work, max_issue + static_cast<std::int64_t>(ceil_of(busy)));
}

}  // namespace

std::vector<std::pair<int, int>> interchangeable_kernels(const BlockProblem& p, std::optional<int> keep_free) {
    const int n = p.kernels();
    std::vector<char> alone(n, 1);
    for (int k = 0; k < n; ++k)
        if (p.stream_pred[k] >= 0) alone[k] = alone[p.stream_pred[k]] = 0;
    auto same = [&](int a, int b) {
        if (p.issue[a] != p.issue[b] || p.blocks[a] != p.blocks[b] || p.block_time[a] != p.block_time[b]) return false;
        for (const auto& r : p.all_resources)
            if (r.demand[a] != r.demand[b]) return false;
        return true;
    };
    std::vector<std::pair<int, int>> out;
    for (int a = 0; a < n; ++a) {
        if (!alone[a] || a == keep_free) continue;
        for (int b = a + 1; b < n; ++b)
            if (alone[b] && b != keep_free && same(a, b)) {
                out.emplace_back(a, b);  // consecutive members: the chain orders the whole class
                break;
            }
    }
    return out;
}

Time BlockProblem::to_time(std::int64_t scaled) const { return Time(scaled) / scale; }

Time BlockProblem::response_upper_bound(int k) const { return to_time(horizon + block_time[k] - issue[k]); }

Time BlockProblem::op_response_upper_bound(int o) const {
    return kernel_of_op[o] >= 0 ? response_upper_bound(kernel_of_op[o]) : to_time(horizon + duration[o] - issue_lb[o]);
}

std::int64_t BlockProblem::index_of_op(int op_index) const {
    for (std::size_t k = 0; k < op.size(); ++k)
        if (op[k] == op_index) return static_cast<std::int64_t>(k);
    return -1;
}

namespace {

// Operation o's issue rule, its value and latest instant (issue_rule, issue_value, issue_hi).
void add_issue_rule(BlockProblem& p, const ScaledTimes& t, const Operation& op, int o) {
    using R = BlockProblem::IssueRule;
    const bool first = p.op_pred[o] < 0;
    if (op.issue.kind == IssueSpec::Kind::after_stream_idle) {
        p.has_after_idle = true;
        p.issue_rule.push_back(R::after_idle);
        p.issue_value.push_back(checked(t, o, OpTime::delay, op));
        p.issue_hi.push_back(p.issue_value[o]);
    } else {
        p.issue_rule.push_back(op.issue.kind == IssueSpec::Kind::with_previous && !first ? R::with_previous : R::at);
        p.issue_value.push_back(checked(t, o, OpTime::issue_lo, op));
        // The simulator reads a window (issue_at) for `at` and a stream's first operation.
        const bool window = p.issue_rule[o] == R::at && !op.issue.at.is_point();
        p.issue_hi.push_back(window ? checked(t, o, OpTime::issue_hi, op) : p.issue_value[o]);
        p.has_windows = p.has_windows || window;
    }
}

// Per-block demands of the kernels, one vector per resource, in kernel order.
struct KernelDemands {
    std::vector<std::int64_t> threads, shared, regs, ones;
};

void add_kernel(BlockProblem& p, const Operation& op, const Stream& st, int o, int& last_kernel_of_stream,
                KernelDemands& dem) {
    const int k = static_cast<int>(p.op.size());
    p.kernel_of_op.push_back(k);
    p.op.push_back(o);
    p.block_time.push_back(p.duration[o]);
    p.blocks.push_back(op.blocks);
    p.issue.push_back(p.issue_lb[o]);
    p.high.push_back(st.priority == Priority::high ? 1 : 0);
    p.stream_pred.push_back(last_kernel_of_stream);
    last_kernel_of_stream = k;
    const BlockDemand d = op.demand();
    dem.threads.push_back(d.threads);
    dem.shared.push_back(d.shared_mem);
    dem.regs.push_back(d.registers);
    dem.ones.push_back(1);
}

// A resource binds only if all blocks together could exceed one SM's capacity of it.
void add_resources(BlockProblem& p, const Platform& pf, const KernelDemands& dem) {
    auto add_if_binding = [&](const std::string& name, std::int64_t cap, const std::vector<std::int64_t>& d) {
        std::int64_t total = 0;
        for (int k = 0; k < p.kernels(); ++k) total += d[k] * p.blocks[k];
        bool used = false;
        for (std::int64_t x : d) used = used || x > 0;
        if (used) p.all_resources.push_back(resource(name, cap, d));
        if (total > cap) p.resources.push_back(resource(name, cap, d));
    };
    add_if_binding("threads", pf.threads_per_sm, dem.threads);
    add_if_binding("shared memory", pf.shared_mem_per_sm, dem.shared);
    add_if_binding("registers", pf.registers_per_sm, dem.regs);
    add_if_binding("resident blocks", pf.blocks_per_sm_max, dem.ones);
}

}  // namespace

BlockProblem make_block_problem(const Workload& w) {
    BlockProblem p;
    p.workload = &w;
    p.sms = w.platform.sms;
    const ScaledTimes ticks = scale_times(workload_times(w));
    p.scale = Time(ticks.scale);
    p.copy_engines = w.platform.copy_engines;
    std::vector<int> last_kernel(w.streams.size(), -1), last_op(w.streams.size(), -1);
    KernelDemands dem;
    // docs/decisions/0003-issue-after-stream-idle.md: an absolute instant means "not before the predecessor's issue".
    const std::vector<IssueBounds<std::int64_t>> bounds = issue_bounds<std::int64_t>(
        w, [&](std::size_t o, OpTime field) { return checked(ticks, static_cast<int>(o), field, w.ops[o]); });
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        const Operation& op = w.ops[i];
        const Stream& st = w.streams[op.stream];
        const int o = static_cast<int>(i);
        p.op_pred.push_back(last_op[op.stream]);
        last_op[op.stream] = o;
        p.duration.push_back(checked(ticks, o, OpTime::hi, op));
        p.duration_lo.push_back(checked(ticks, o, OpTime::lo, op));
        p.has_intervals = p.has_intervals || p.duration_lo[o] < p.duration[o];
        p.in_null.push_back(st.is_null ? 1 : 0);
        p.has_null = p.has_null || st.is_null;
        p.has_priorities = p.has_priorities || st.priority == Priority::high;
        add_issue_rule(p, ticks, op, o);
        p.issue_lb.push_back(bounds[i].lo);
        p.issue_fixed.push_back(bounds[i].fixed() ? 1 : 0);
        if (!op.is_kernel()) {
            p.has_copies = true;
            p.kernel_of_op.push_back(-1);
            continue;
        }
        add_kernel(p, op, st, o, last_kernel[op.stream], dem);
    }
    add_resources(p, w.platform, dem);
    reject_wide_coefficients(w, p);
    p.horizon = start_horizon(p);
    return p;
}

}  // namespace gpuwcrt
