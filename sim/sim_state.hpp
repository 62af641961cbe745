#pragma once
// The mutable state of one simulation run: the queues of docs/theory/semantics.md §4 and the GPU's occupancy.
#include <array>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "model/time_less.hpp"
#include "sim/contexts/slice_state.hpp"
#include "sim/scenario.hpp"
#include "sim/schedule.hpp"

namespace gpuwcrt {

using PendingIssue = std::tuple<Time, long, int>;  // (issue instant, rank, op)
struct PendingIssueOrder {
    bool operator()(const PendingIssue& a, const PendingIssue& b) const {
        if (int c = time_compare(std::get<0>(a), std::get<0>(b))) return c < 0;
        return std::tie(std::get<1>(a), std::get<2>(a)) < std::tie(std::get<1>(b), std::get<2>(b));
    }
};

// A stream's issued, not yet completed operations in issue order (G1, G4, C4): a vector and
// the index of its head, as operations nearly always leave at the head. An empty queue holds no
// memory, where a std::deque allocates a block at once, for each of the streams of a
// workload with a stream per kernel.
class StreamQueue {
public:
    bool empty() const { return head_ == items_.size(); }
    std::size_t size() const { return items_.size() - head_; }
    int front() const { return items_[head_]; }
    void push_back(int op) { items_.push_back(op); }
    void erase(int op);  // `op` is in the queue

private:
    std::vector<int> items_;
    std::size_t head_ = 0;  // items_[head_..] are queued
};

struct SimState {
    SimState(const Workload& w, const Scenario& s);

    const Workload& w;
    const Scenario& scenario;
    Time now = 0;

    std::vector<StreamQueue> stream_queue;  // per stream
    // Per context: [0] priority-high, [1] priority-low (A1).
    std::vector<std::array<std::deque<int>, 2>> ee_queue;
    std::deque<int> ce_queue;    // C1-C3
    std::vector<char> joined;    // has joined its EE or the CE queue
    std::vector<int> engine_op;  // per copy engine: running copy or -1
    std::vector<SmUsage> sm;     // of the context holding the compute engine (all, without slices)
    int round_robin_last = -1;   // of that context

    std::vector<std::optional<Time>> issue_at;  // known issue instant, not yet issued
    std::vector<char> issued, completed;
    // Indexes kept in step with the queues so that each event costs O(log n) per operation it
    // touches instead of a scan of every operation or stream (quadratic over a whole run).
    std::vector<int> null_stream;                              // per context, -1 when it has none
    std::vector<int> next_in_stream;                           // successor in the stream, or -1
    std::set<PendingIssue, PendingIssueOrder> pending_issues;  // not yet issued
    std::set<std::pair<long, int>> waiting_kernels;            // (launch_seq, op): stream heads not joined
    std::vector<int> waiting_copies;                           // copy stream heads not joined
    std::vector<std::set<std::pair<long, int>>>
        other_fronts;  // per context, (launch_seq, op): heads of non-NULL streams
    // W1: per operation, its waits not yet completed, and who waits on it (empty without waits).
    std::vector<int> waits_left;
    std::vector<std::vector<int>> waiters;
    std::vector<std::int64_t> next_block, blocks_done;
    // Running blocks by end time, those ending together in dispatch order: one entry per
    // instant rather than per block, as every block of a kernel dispatched at once ends together.
    using EndingBlocks = gpuwcrt::EndingBlocks;
    EndingBlocks running_blocks;                        // of the context holding the compute engine
    std::multimap<Time, int, TimeLess> running_copies;  // by end time -> op
    long next_launch_seq = 0;

    Schedule out;
    bool keep_blocks = true;  // out.blocks lists every block dispatched
    SliceState slices;

    int context_of(int op) const { return w.streams[w.ops[op].stream].context; }
    long rank(int op) const;
    void set_issue_at(int op, const Time& t);
    void push_issued(int op);    // G1: joins its stream queue
    void pop_completed(int op);  // G4/C4: leaves its stream queue
    void may_join(int op);       // a stream head whose waits are done may join its EE or the CE queue
    Time block_time(int kernel, std::int64_t block) const;
    std::optional<Time> next_event() const;
    bool another_pending(int context) const;  // some other context has a kernel issued, not completed
};

}  // namespace gpuwcrt
