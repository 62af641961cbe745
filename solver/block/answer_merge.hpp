#pragma once
// What several engines proved about one operation, combined: the largest replayed response
// (a lower bound with its witness) and the smallest proven upper bound, each with the engine
// that gave it; exact exactly when they meet. And the certify verdict that follows from it.
#include <string>

#include "bounds/answer.hpp"

namespace gpuwcrt {

// Takes from `from` what improves `into` (same operation): a larger wcrt with its witness, a
// smaller upper bound. Throws ReplayMismatch when a lower bound exceeds an upper bound: one of
// the engines would be wrong, and no verdict may be drawn from either.
void absorb(const Workload& w, WcrtAnswer& into, const WcrtAnswer& from, const std::string& engine);

// certified when the upper bound is at most `bound`; refuted when the replayed lower bound
// exceeds it (the witness is replayed again here, before it becomes a counterexample); else
// unknown, with the answer's reason. busy_time_bound is set when that argument certified it.
CertifyAnswer verdict_from(const Workload& w, const WcrtAnswer& a, const Time& bound);

}  // namespace gpuwcrt
