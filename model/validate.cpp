#include "model/validate.hpp"

#include "model/checked_int.hpp"
#include "model/contexts/contexts.hpp"
#include "model/frames/validate_frames.hpp"
#include "model/workload_totals.hpp"

namespace gpuwcrt {
namespace {

void check_block_limits(const Platform& p, const Operation& op) {
    auto over = [&](const std::string& what, std::int64_t value, std::int64_t limit) {
        throw InputError(op.where, "kernel '" + op.name + "': " + what + " " + std::to_string(value) +
                                       " exceeds the per-block limit " + std::to_string(limit) + " (R1)");
    };
    if (op.threads > p.threads_per_block_max) over("threads per block", op.threads, p.threads_per_block_max);
    if (op.shared_mem > p.shared_mem_per_block_max)
        over("shared memory per block (bytes)", op.shared_mem, p.shared_mem_per_block_max);
    // Checked: registers x threads must not wrap around (2^62 x 4 would be 0).
    if (!product_within(op.registers, op.threads, p.registers_per_block_max)) {
        const auto product = checked_mul(op.registers, op.threads);
        throw InputError(op.where, "kernel '" + op.name + "': registers per block (registers x threads) " +
                                       (product ? std::to_string(*product)
                                                : std::to_string(op.registers) + " x " + std::to_string(op.threads)) +
                                       " exceeds the per-block limit " + std::to_string(p.registers_per_block_max) +
                                       " (R1)");
    }
    if (!SmUsage{}.fits(op.demand(), p))
        throw InputError(op.where, "kernel '" + op.name + "': one block (" + std::to_string(op.threads) + " threads, " +
                                       std::to_string(op.shared_mem) + " B shared, " +
                                       std::to_string(op.demand().registers) +
                                       " registers) does not fit even on an empty SM, so it could never run");
}

}  // namespace

void validate_workload(const Workload& w) {
    for (const Operation& op : w.ops)
        if (op.is_kernel()) check_block_limits(w.platform, op);
    check_workload_totals(w);
    // One pass in file order: the last operation seen in each stream is its predecessor.
    std::vector<const Operation*> prev(w.streams.size(), nullptr);
    for (const Operation& op : w.ops) {
        const Operation* p = prev[op.stream];
        if (p && p->issue.is_static() && op.issue.is_static() &&
            (op.issue.at.lo < p->issue.at.lo || op.issue.at.hi < p->issue.at.hi))
            throw InputError(op.where, "issue time of '" + op.name + "' (" + human_string(op.issue.at.lo) +
                                           ") is before that of '" + p->name + "' (" + human_string(p->issue.at.lo) +
                                           ") earlier in stream '" + w.streams[op.stream].name + "'");
        prev[op.stream] = &op;
    }
    validate_frames(w);
    validate_contexts(w);
}

}  // namespace gpuwcrt
