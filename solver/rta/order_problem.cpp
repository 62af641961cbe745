#include "solver/rta/order_problem.hpp"

#include <map>

namespace gpuwcrt {

bool RtaOrderProblem::may_precede(int a, int b) const {
    if (release[a] != release[b]) return release[a] < release[b];
    return !stream_before(b, a);
}

bool RtaOrderProblem::stream_before(int a, int b) const {
    return a != b && release[a] == release[b] && stream[a] == stream[b] && position[a] < position[b];
}

bool RtaOrderProblem::keeps_order(const std::vector<int>& order) const {
    std::map<int, int> last_position;  // per stream, among the kernels of the current release
    for (std::size_t i = 0; i < order.size(); ++i) {
        const int j = order[i];
        if (i > 0 && release[order[i - 1]] != release[j]) {
            if (release[order[i - 1]] > release[j]) return false;
            last_position.clear();
        }
        auto [it, fresh] = last_position.try_emplace(stream[j], position[j]);
        if (!fresh) {
            if (it->second > position[j]) return false;
            it->second = position[j];
        }
    }
    return true;
}

}  // namespace gpuwcrt
