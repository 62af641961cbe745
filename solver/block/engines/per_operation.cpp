#include "solver/block/engines/per_operation.hpp"

namespace gpuwcrt {

void for_each_operation(const std::vector<int>& ops, const Budget& budget, Share share,
                        const std::function<void(int op, const Budget& for_it)>& one) {
    for (std::size_t i = 0; i < ops.size(); ++i) {
        if (share == Share::all_left) {
            one(ops[i], budget);
            continue;
        }
        if (budget.expired()) return;
        one(ops[i], budget.slice(1, static_cast<long long>(ops.size() - i)));
    }
}

}  // namespace gpuwcrt
