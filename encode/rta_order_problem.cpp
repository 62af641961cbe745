#include "encode/rta_order_problem.hpp"

namespace gpuwcrt {

bool RtaOrderProblem::may_precede(int a, int b) const {
    if (release[a] != release[b]) return release[a] < release[b];
    return !stream_before(b, a);
}

bool RtaOrderProblem::stream_before(int a, int b) const {
    return a != b && release[a] == release[b] && stream[a] == stream[b] && position[a] < position[b];
}

}  // namespace gpuwcrt
