#pragma once
// A workload's RTA launch-order question in integers (solver/rta/order_problem.hpp), and the
// orders it ranges over: the kernels sorted by their RTA release (bounds/rta/rta_workload.hpp,
// rta_releases), kernels of equal release in any order that keeps each stream's order. For
// fixed issue instants these are exactly the launch orders of docs/theory/semantics.md §5 (copies left out).
#include <vector>

#include "solver/rta/order_problem.hpp"
#include "model/workload.hpp"

namespace gpuwcrt::rta_orders {

struct WorkloadOrders {
    RtaOrderProblem problem;
    std::vector<int> op;  // problem index -> operation index
    Time scale = 1;       // model time = scaled integer / scale
};

// Throws InputError (at the kernel, or the platform) when the one-big-SM figures or the
// scaled instants do not fit (model/integer_time.hpp, fits_ticks).
WorkloadOrders workload_orders(const Workload& w);

}  // namespace gpuwcrt::rta_orders
