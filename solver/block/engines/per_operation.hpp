#pragma once
// The engines that answer one operation at a time (SMT: smt_maximise, smt_certify) share this
// loop over the operations and the budget.
#include <functional>
#include <vector>

#include "common/budget.hpp"

namespace gpuwcrt {

// all_left: every operation may take all the time left (alone, an engine asks every operation,
// and one asked after the deadline answers "unknown (timeout)" at once). even_split: what is
// left is split evenly over the operations still to do, and the loop ends at the deadline (a
// link of the auto chain, which has answers from earlier links for the rest).
enum class Share { all_left, even_split };

void for_each_operation(const std::vector<int>& ops, const Budget& budget, Share share,
                        const std::function<void(int op, const Budget& for_it)>& one);

}  // namespace gpuwcrt
