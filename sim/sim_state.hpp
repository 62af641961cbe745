#pragma once
// The mutable state of one simulation run: the queues of SPEC §4 and the GPU's occupancy.
#include <array>
#include <deque>
#include <map>
#include <optional>

#include "sim/scenario.hpp"
#include "sim/schedule.hpp"

namespace gpuwcrt {

struct RunningBlock {
    int kernel;
    int sm;
};

struct SimState {
    SimState(const Workload& w, const Scenario& s);

    const Workload& w;
    const Scenario& scenario;
    Time now = 0;

    std::vector<std::deque<int>> stream_queue;  // issued, not yet completed (G1, G4, C4)
    std::array<std::deque<int>, 2> ee_queue;    // [0] priority-high, [1] priority-low (A1)
    std::deque<int> ce_queue;                   // C1-C3
    std::vector<char> joined;                   // has joined its EE or the CE queue
    std::vector<int> engine_op;                 // per copy engine: running copy or -1
    std::vector<SmUsage> sm;
    int round_robin_last = -1;

    std::vector<std::optional<Time>> issue_at;  // known issue instant, not yet issued
    std::vector<char> issued, completed;
    std::vector<std::int64_t> next_block, blocks_done;
    std::multimap<Time, RunningBlock> running_blocks;  // by end time
    std::multimap<Time, int> running_copies;           // by end time -> op
    long next_launch_seq = 0;

    Schedule out;

    long rank(int op) const;
    Time block_time(int kernel, std::int64_t block) const;
    std::optional<Time> next_event() const;
};

}  // namespace gpuwcrt
