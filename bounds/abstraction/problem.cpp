#include "bounds/abstraction/problem.hpp"

#include <string>

#include "bounds/abstraction/interval.hpp"

namespace gpuwcrt::abstraction {
namespace {

std::int64_t gcd(std::int64_t a, std::int64_t b) {
    while (b) a %= b, std::swap(a, b);
    return a;
}

void add_resource(Problem& p, const std::string& what, std::int64_t cap, std::int64_t (*demand)(const Operation&)) {
    Resource r;
    std::int64_t g = 0;
    const Operation* finest = nullptr;
    for (const Operation& op : p.w.ops)
        if (op.is_kernel() && demand(op) > 0) g = gcd(g, demand(op)), finest = finest ? finest : &op;
    if (g == 0) return;  // nobody needs it: it never binds
    r.unit = g;
    if (cap / g > max_units)
        throw InputError(finest->where, "--engine bounds cuts each SM's " + what +
                                            " into units of the GCD of every "
                                            "kernel's per-block demand (" +
                                            std::to_string(g) + "), here " + std::to_string(cap / g) +
                                            " units, more than its limit " + std::to_string(max_units) +
                                            "; use --engine smt or enumerate");
    r.units = static_cast<int>(cap / g);
    r.offset = p.total_units;
    p.total_units += r.units;
    for (const Operation& op : p.w.ops) r.need.push_back(op.is_kernel() ? static_cast<int>(demand(op) / g) : 0);
    p.resources.push_back(std::move(r));
}

}  // namespace

Problem::Problem(const Workload& wl) : w(wl), times(integer_times(wl)) {
    streams = static_cast<int>(w.streams.size());
    null_stream = w.null_stream();
    high.assign(w.ops.size(), 0);
    bool any_high = false, any_low = false;
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        const Operation& op = w.ops[i];
        high[i] = w.streams[op.stream].priority == Priority::high;
        if (op.is_kernel()) (high[i] ? any_high : any_low) = true;
    }
    two_queues = any_high && any_low;
    done_cap.assign(w.ops.size(), never);
    pred.assign(w.ops.size(), -1);
    next.assign(w.ops.size(), -1);
    std::vector<int> last(w.streams.size(), -1);
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        pred[i] = last[w.ops[i].stream];
        if (pred[i] >= 0) next[pred[i]] = static_cast<int>(i);
        last[w.ops[i].stream] = static_cast<int>(i);
    }
    translation_invariant = null_stream < 0;
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        const IssueSpec& is = w.ops[i].issue;
        const bool zero =
            is.kind == IssueSpec::Kind::at
                ? times.issue_lo[i] == 0 && times.issue_hi[i] == 0
                : pred[i] >= 0 ||
                      (is.kind == IssueSpec::Kind::after_stream_idle ? times.delay[i] == 0 : times.issue_lo[i] == 0);
        if (!zero) translation_invariant = false;
    }
    const Platform& pl = w.platform;
    add_resource(*this, "threads", pl.threads_per_sm, [](const Operation& o) { return o.demand().threads; });
    add_resource(*this, "shared memory", pl.shared_mem_per_sm,
                 [](const Operation& o) { return o.demand().shared_mem; });
    add_resource(*this, "registers", pl.registers_per_sm, [](const Operation& o) { return o.demand().registers; });
    // Resident blocks bind only if the SM can hold more blocks of the smallest thread count than
    // its limit; otherwise the threads resource always refuses a block first.
    std::int64_t min_threads = 0;
    for (const Operation& op : w.ops)
        if (op.is_kernel() && op.threads > 0 && (min_threads == 0 || op.threads < min_threads))
            min_threads = op.threads;
    if (min_threads == 0 || pl.threads_per_sm / min_threads > pl.blocks_per_sm_max)
        add_resource(*this, "resident blocks", pl.blocks_per_sm_max, [](const Operation&) { return std::int64_t(1); });
}

}  // namespace gpuwcrt::abstraction
