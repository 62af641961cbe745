#include "model/workload_totals.hpp"

#include "model/checked_int.hpp"
#include "model/input_limits.hpp"

namespace gpuwcrt {

void check_workload_totals(const Workload& w) {
    struct Sum {
        const char* what;
        std::int64_t total = 0;
    };
    Sum blocks{"blocks"}, threads{"blocks x threads"}, shared{"blocks x shared_mem"},
        registers{"blocks x registers per block"};
    for (const Operation& op : w.ops) {
        if (!op.is_kernel()) continue;
        const BlockDemand d = op.demand();
        for (auto [sum, per_block] : {std::pair{&blocks, std::int64_t{1}}, std::pair{&threads, d.threads},
                                      std::pair{&shared, d.shared_mem}, std::pair{&registers, d.registers}}) {
            const auto part = checked_mul(op.blocks, per_block);
            const auto total = part ? checked_add(sum->total, *part) : std::nullopt;
            if (!total || *total > limits::max_total)
                throw InputError(op.where, "kernel '" + op.name + "': the workload's total " + sum->what +
                                               " exceeds the limit 2^62 (the model counts it in 64 bits)");
            sum->total = *total;
        }
    }
}

}  // namespace gpuwcrt
