#include "sim/sim_state.hpp"

namespace gpuwcrt {

SimState::SimState(const Workload& wl, const Scenario& sc)
    : w(wl),
      scenario(sc),
      stream_queue(wl.streams.size()),
      joined(wl.ops.size(), 0),
      engine_op(wl.platform.copy_engines, -1),
      sm(wl.platform.sms),
      issue_at(wl.ops.size()),
      issued(wl.ops.size(), 0),
      completed(wl.ops.size(), 0),
      next_block(wl.ops.size(), 0),
      blocks_done(wl.ops.size(), 0) {
    out.ops.resize(wl.ops.size());
}

long SimState::rank(int op) const {
    return scenario.rank.empty() ? op : scenario.rank[op];
}

Time SimState::block_time(int kernel, std::int64_t block) const {
    if (scenario.block_time) return scenario.block_time(kernel, block);
    return w.ops[kernel].time.hi;
}

std::optional<Time> SimState::next_event() const {
    std::optional<Time> t;
    auto consider = [&](const Time& x) {
        if (!t || x < *t) t = x;
    };
    for (std::size_t i = 0; i < issue_at.size(); ++i)
        if (issue_at[i] && !issued[i]) consider(*issue_at[i]);
    if (!running_blocks.empty()) consider(running_blocks.begin()->first);
    if (!running_copies.empty()) consider(running_copies.begin()->first);
    return t;
}

}  // namespace gpuwcrt
