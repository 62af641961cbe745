#pragma once
// The executable TX2 semantics of docs/theory/semantics.md §4: the reference every other engine is checked against.
#include "sim/scenario.hpp"
#include "sim/schedule.hpp"

namespace gpuwcrt {

// The simulator takes one event per block and records every block, so a workload with more
// blocks in total is refused (InputError at the kernel where the sum passes the limit) rather
// than run for hours: 2·10^7 blocks take about a minute and a few GB. The RTA has no such limit.
inline constexpr std::int64_t max_simulated_blocks = 4'000'000;

// Whether the schedule lists every block (Schedule::blocks) or only the operations' times:
// an output that shows no block need not keep 10^6 of them.
enum class BlockRecord { kept, dropped };

Schedule simulate(const Workload& w, const Scenario& scenario = {}, BlockRecord blocks = BlockRecord::kept);

}  // namespace gpuwcrt
