#pragma once
// One operation as the interference bound sees it, in integer ticks (model/integer_time.hpp).
#include <array>
#include <cstdint>
#include <optional>

#include "model/rounding.hpp"
#include "model/time.hpp"

namespace gpuwcrt::interference {

// The per-SM resources a block occupies (docs/theory/semantics.md §2): threads, shared memory, registers, and one
// resident-block slot, the last.
inline constexpr int resource_kinds = 4;
using Needs = std::array<std::int64_t, resource_kinds>;

// The lower ends follow from the lower ends of durations and issue instants alone; the upper
// ends tighten sweep by sweep, each from bounds already proven.
struct ChainOp {
    bool kernel = false;
    int stream = 0;
    bool high = false;
    int pred = -1;
    std::int64_t lo = 0, hi = 0, blocks = 0;
    Needs need{};
    std::int64_t at_once = 1;  // a kernel's blocks that fit on the SMs together, at most
    std::int64_t issue_lo = 0, join_lo = 0, done_lo = 0;
    std::int64_t issue_hi = 0, join_hi = 0, done_hi = 0;
    std::int64_t behind = 0;               // join − issue, at most (waiting for the predecessor)
    std::optional<std::int64_t> response;  // done − issue, at most
};

// The least tick count at or above t (t >= 0), saturated at `limit`.
inline std::int64_t ceil_ticks(const Time& t, std::int64_t limit) {
    const BigInt c = ceil_of(t);
    return c >= limit ? limit : static_cast<std::int64_t>(c);
}

}  // namespace gpuwcrt::interference
