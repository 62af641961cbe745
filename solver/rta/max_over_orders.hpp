#pragma once
// "RTA maximised over every launch order" for a workload (SPEC §7 over the orders of
// solver/rta/problem.hpp), by one of three engines. Every maximising order is replayed
// through the reference RTA (bounds/rta/rta_workload.hpp, rta) before it is reported.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "common/budget.hpp"
#include "model/workload.hpp"

namespace gpuwcrt {

enum class RtaOrdersEngine {
    search,     // branch and bound over order prefixes (solver/rta/search.hpp), the default
    smt,        // Z3 over encode/rta/rta_encoding.hpp
    enumerate,  // every launch order (solver/block/enumerate.hpp, for_each_launch_order)
    sets,       // Pareto states per prefix set (solver/rta/prefix_sets.hpp)
};
std::string to_string(RtaOrdersEngine e);

struct RtaMaxOverOrders {
    // Indexed like w.ops; nullopt for copies and when the engine did not finish.
    std::vector<std::optional<Time>> response;
    std::vector<std::vector<int>> order;  // a launch order (operation indices, kernels only) giving it
    // A kernel the engine left undecided (search only): the largest response of an order found
    // (replayed; its order in `order`) and a proven upper bound.
    std::vector<std::optional<Time>> lower, upper;
    bool complete = false;
    std::string note;    // why it is incomplete
    long long work = 0;  // search nodes, solver checks or orders
};

// InputError when the workload's RTA does not fit the engines' integers (message names the kernel).
RtaMaxOverOrders rta_max_over_orders(const Workload& w, RtaOrdersEngine engine, const Budget& budget,
                                     long long enumeration_limit = 200000);

}  // namespace gpuwcrt
