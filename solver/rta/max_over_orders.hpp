#pragma once
// "RTA maximised over every launch order" for a workload (docs/semantics.md §7 over the orders of
// solver/rta/problem.hpp), by the branch and bound of solver/rta/search.hpp. Every maximising
// order is replayed through the reference RTA (bounds/rta/rta_workload.hpp, rta) before it is
// reported.
#include <optional>
#include <string>
#include <vector>

#include "common/budget.hpp"
#include "model/workload.hpp"

namespace gpuwcrt {

struct RtaMaxOverOrders {
    // Indexed like w.ops; nullopt for copies and when the search did not finish.
    std::vector<std::optional<Time>> response;
    std::vector<std::vector<int>> order;  // a launch order (operation indices, kernels only) giving it
    // A kernel the search left undecided: the largest response of an order found (replayed; its
    // order in `order`) and a proven upper bound.
    std::vector<std::optional<Time>> lower, upper;
    bool complete = false;
    std::string note;    // why it is incomplete
    long long work = 0;  // search nodes
};

// InputError when the workload's RTA does not fit the search's integers (message names the kernel).
RtaMaxOverOrders rta_max_over_orders(const Workload& w, const Budget& budget);

}  // namespace gpuwcrt
