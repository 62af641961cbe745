#pragma once
// The SMT engine for "RTA maximised over launch orders": Z3 over encode/rta/rta_encoding.hpp,
// improving each kernel's f until no order gives more. Every order Z3 proposes is re-analysed
// by the reference Algorithm 2 (bounds/rta/rta.hpp) before its value is used.
#include <chrono>
#include <optional>

#include "solver/rta/search.hpp"

namespace gpuwcrt::rta_orders {

// Same answer shape as search_max_finish (complete = every kernel decided before the deadline).
SearchResult smt_max_finish(const RtaOrderProblem& p, const Budget& budget, std::optional<int> only = std::nullopt);

// f of every kernel for one order (problem indices), by the reference bounds/rta/rta.hpp.
std::vector<std::int64_t> reference_finish(const RtaOrderProblem& p, const std::vector<int>& order);

}  // namespace gpuwcrt::rta_orders
