#pragma once
// Every time of the abstraction is an interval of integer ticks (model/integer_time.hpp).
#include <cstdint>
#include <limits>

#include "model/interval.hpp"

namespace gpuwcrt::abstraction {

inline constexpr std::int64_t never = std::numeric_limits<std::int64_t>::max();  // no fit, ever

using Interval = gpuwcrt::Interval<std::int64_t>;
using gpuwcrt::contains;
using gpuwcrt::hull;
using gpuwcrt::max_of;
using gpuwcrt::plus;

}  // namespace gpuwcrt::abstraction
