#pragma once
// The exchange of one level's children between processes (docs/theory/distributed.md, "Exchange"):
// each process queues the children it finds for other processes, per owner, and every process
// takes part in rounds of one collective exchange each. A round sends at most what the queues
// hold, and a process calls one when its queues reach `round_bytes` (or some time has passed),
// so that the memory the exchange takes stays flat whatever the level's size. A round also
// agrees on whether every process is done with the level and on the strongest stop any
// process asks for (StopReason: the strongest wins).
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/budget.hpp"
#include "solver/exact/chunk_output.hpp"

namespace gpuwcrt::exact::distributed {

// Appends `c` to `out` (all but the beam's fields); read_child reads it back from `in` at `at`
// (advanced), its views and choices pointing into `in` and `choices`.
void write_child(const ChildView& c, std::string& out);
ChildView read_child(std::string_view in, std::size_t& at, std::vector<int>& choices);

struct RoundOutcome {
    bool all_done = false;           // no process has anything more to send in this level
    std::optional<StopReason> stop;  // the strongest stop of any process
};

class Exchange {
public:
    Exchange(int processes, std::size_t round_bytes);

    std::string& queue(int process) { return queues_[static_cast<std::size_t>(process)]; }
    std::size_t queued() const;
    // Whether this process should call a round now: its queues are full, or a while has passed
    // since the last one (so that a stop reaches every process soon).
    bool due() const;
    // One collective round. `done`: this process will queue nothing more in this level; `stop`:
    // its stop, if any. What was received is in received(p), for each process p, until the next
    // round. A receive buffer that cannot be allocated on some process is a memory stop for
    // every process, and that round's children are dropped.
    RoundOutcome round(bool done, std::optional<StopReason> stop);
    std::string_view received(int process) const;

    long long bytes_sent = 0;   // by this process, over every round
    std::size_t bytes() const;  // the queues' and buffers' capacity

private:
    int processes_;
    std::size_t round_bytes_;
    std::vector<std::string> queues_;
    std::string out_, in_;
    std::vector<int> receive_, receive_at_;
    std::chrono::steady_clock::time_point last_;
};

}  // namespace gpuwcrt::exact::distributed
