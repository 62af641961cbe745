#pragma once
// Building an encoding under the run's Budget. Large encodings take seconds and gigabytes to
// build, so --timeout and the memory budget must reach into their construction: the constructors
// call check_build() inside every constraint family's loops (each iteration costs far more than
// reading the clock), and stop within milliseconds of the deadline instead of finishing a term
// nobody can solve.
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>

#include <z3.h>

#include "common/budget.hpp"
#include "common/progress.hpp"

namespace gpuwcrt {

// The check inside every constraint family's loops: the deadline, and what Z3 holds so far (every
// context of the process) against the budget's memory, so that an encoding larger than its share
// stops being built before the process runs out (the engine answers "unknown (memory limit)").
inline void check_build(const Budget& budget) { budget.check(static_cast<std::size_t>(Z3_get_estimated_alloc_size())); }

// Builds an encoding's constraint families in order, announcing each; false when the budget
// ran out on the way (what was built stays: the encoding marks itself interrupted, and the
// engine discards it, answering "unknown" with what it has already proven).
inline bool build_families(const ProgressSink& progress,
                           std::initializer_list<std::pair<const char*, std::function<void()>>> families) {
    try {
        for (const auto& [name, family] : families) {
            if (progress) progress(name);
            family();
        }
    } catch (const BudgetExhausted&) {
        return false;
    }
    return true;
}

}  // namespace gpuwcrt
