#include "solver/abstraction/problem.hpp"

#include <string>

namespace gpuwcrt::abstraction {
namespace {

[[noreturn]] void refuse(const SourceLocation& where, const std::string& why) {
    throw InputError(where, "--engine bounds does not cover " + why +
                                " yet (an interval abstraction of it is not implemented, and a bound that "
                                "ignores it would be unsound); use --engine smt or enumerate");
}

void require_scope(const Workload& w) {
    if (w.ops.size() > static_cast<std::size_t>(max_operations))
        throw InputError({w.source, 0, 0}, "--engine bounds handles at most " + std::to_string(max_operations) +
                                               " operations; this workload has " + std::to_string(w.ops.size()));
    const Operation* high = nullptr;
    const Operation* low = nullptr;
    for (const Operation& op : w.ops) {
        if (!op.is_kernel()) continue;
        (w.streams[op.stream].priority == Priority::high ? high : low) = &op;
    }
    if (high && low)
        refuse(high->where, "kernels of both priority levels (A1/A2: '" + high->name + "' is high, '" + low->name +
                                "' is low)");
    const int null = w.null_stream();
    if (null < 0) return;
    bool null_busy = false, other_busy = false;
    for (const Operation& op : w.ops) (op.stream == null ? null_busy : other_busy) = true;
    if (null_busy && other_busy)
        refuse(w.streams[null].where, "the NULL stream beside other streams (N1/N2)");
}

}  // namespace

Problem::Problem(const Workload& wl) : w(wl), times((require_scope(wl), integer_times(wl))) {
    streams = static_cast<int>(w.streams.size());
    pred.assign(w.ops.size(), -1);
    demand_class.assign(w.ops.size(), -1);
    std::vector<int> last(w.streams.size(), -1);
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        const Operation& op = w.ops[i];
        pred[i] = last[op.stream];
        last[op.stream] = static_cast<int>(i);
        if (!op.is_kernel()) continue;
        const BlockDemand d = op.demand();
        int c = 0;
        while (c < static_cast<int>(class_demand.size()) &&
               !(class_demand[c].threads == d.threads && class_demand[c].shared_mem == d.shared_mem &&
                 class_demand[c].registers == d.registers))
            ++c;
        if (c == static_cast<int>(class_demand.size())) class_demand.push_back(d);
        demand_class[i] = c;
    }
}

}  // namespace gpuwcrt::abstraction
