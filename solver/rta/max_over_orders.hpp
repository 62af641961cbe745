#pragma once
// "RTA maximised over every launch order" for a workload (docs/theory/semantics.md §7 over the orders of
// solver/rta/problem.hpp), by the branch and bound of solver/rta/search.hpp. Every maximising
// order is replayed through the reference RTA (bounds/rta/rta_workload.hpp, rta) before it is
// reported.
#include <optional>
#include <string>
#include <vector>

#include "bounds/answer.hpp"
#include "common/budget.hpp"
#include "model/workload.hpp"

namespace gpuwcrt {

// A launch order: operation indices, kernels only, in the order they launch.
using LaunchOrder = std::vector<int>;

struct RtaMaxOverOrders {
    // Indexed like w.ops (a copy's answer is empty). A kernel the search decided: exact, its
    // maximum witnessed by an order. One it left undecided: the largest response of an order
    // found, if any (replayed, the order its witness), and a proven upper bound.
    std::vector<BoundedAnswer<Time, LaunchOrder>> answers;
    bool complete = false;
    std::string note;    // why it is incomplete
    long long work = 0;  // search nodes
};

// InputError when the workload's RTA does not fit the search's integers (message names the kernel).
RtaMaxOverOrders rta_max_over_orders(const Workload& w, const Budget& budget);

}  // namespace gpuwcrt
