#include "sim/sim_state.hpp"

#include <algorithm>

namespace gpuwcrt {

void StreamQueue::erase(int op) {
    if (items_[head_] == op) ++head_;
    else items_.erase(std::find(items_.begin() + static_cast<std::ptrdiff_t>(head_), items_.end(), op));
    if (head_ == items_.size()) {
        items_.clear();
        head_ = 0;
    } else if (head_ > 16 && 2 * head_ > items_.size()) {  // amortised O(1): a long queue is not copied at every step
        items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
        head_ = 0;
    }
}

SimState::SimState(const Workload& wl, const Scenario& sc)
    : w(wl),
      scenario(sc),
      stream_queue(wl.streams.size()),
      ee_queue(wl.context_count()),
      joined(wl.ops.size(), 0),
      engine_op(wl.platform.copy_engines, -1),
      sm(wl.platform.sms),
      issue_at(wl.ops.size()),
      issued(wl.ops.size(), 0),
      completed(wl.ops.size(), 0),
      next_block(wl.ops.size(), 0),
      blocks_done(wl.ops.size(), 0) {
    out.ops.resize(wl.ops.size());
    null_stream.assign(wl.context_count(), -1);
    other_fronts.resize(wl.context_count());
    for (std::size_t i = 0; i < wl.streams.size(); ++i)
        if (wl.streams[i].is_null) null_stream[wl.streams[i].context] = static_cast<int>(i);
    if (wl.sliced()) {
        slices.on = true;
        slices.pending.assign(wl.contexts.size(), 0);
        slices.frozen.assign(wl.contexts.size(), FrozenContext{{}, sm, -1, 0});
    }
    next_in_stream.assign(wl.ops.size(), -1);
    std::vector<int> last(wl.streams.size(), -1);
    for (std::size_t i = 0; i < wl.ops.size(); ++i) {
        int& prev = last[wl.ops[i].stream];
        if (prev >= 0) next_in_stream[prev] = static_cast<int>(i);
        prev = static_cast<int>(i);
    }
    if (!wl.has_wait()) return;
    waits_left.assign(wl.ops.size(), 0);
    waiters.resize(wl.ops.size());
    for (std::size_t i = 0; i < wl.ops.size(); ++i) {
        waits_left[i] = static_cast<int>(wl.ops[i].wait.size());
        for (int t : wl.ops[i].wait) waiters[t].push_back(static_cast<int>(i));
    }
}

void SimState::set_issue_at(int op, const Time& t) {
    if (issued[op]) return;
    if (issue_at[op]) pending_issues.erase({*issue_at[op], rank(op), op});
    issue_at[op] = t;
    pending_issues.emplace(t, rank(op), op);
}

namespace {

// A new head of stream `st` counts for N1 and may join its EE or the CE queue (G2, C1).
void new_head(SimState& s, int st) {
    const int op = s.stream_queue[st].front();
    const int c = s.w.streams[st].context;
    if (st != s.null_stream[c]) s.other_fronts[c].emplace(s.out.ops[op].launch_seq, op);
    s.may_join(op);
}

}  // namespace

void SimState::may_join(int op) {
    if (joined[op] || (!waits_left.empty() && waits_left[op] > 0)) return;  // W1 holds it back
    if (w.ops[op].is_kernel()) waiting_kernels.emplace(out.ops[op].launch_seq, op);
    else waiting_copies.push_back(op);
}

void SimState::push_issued(int op) {
    const int st = w.ops[op].stream;
    if (slices.on && w.ops[op].is_kernel()) ++slices.pending[w.streams[st].context];
    stream_queue[st].push_back(op);
    if (stream_queue[st].size() == 1) new_head(*this, st);
}

void SimState::pop_completed(int op) {
    const int st = w.ops[op].stream;
    const int c = w.streams[st].context;
    if (slices.on && w.ops[op].is_kernel()) --slices.pending[c];
    auto& q = stream_queue[st];
    const bool was_head = q.front() == op;
    q.erase(op);
    if (!was_head) return;
    if (st != null_stream[c]) other_fronts[c].erase({out.ops[op].launch_seq, op});
    if (!q.empty()) new_head(*this, st);
}

bool SimState::another_pending(int context) const {
    for (std::size_t c = 0; c < slices.pending.size(); ++c)
        if (static_cast<int>(c) != context && slices.pending[c] > 0) return true;
    return false;
}

long SimState::rank(int op) const { return scenario.rank.empty() ? op : scenario.rank[op]; }

Time SimState::block_time(int kernel, std::int64_t block) const {
    if (scenario.block_time) return scenario.block_time(kernel, block);
    return w.ops[kernel].time.hi;
}

std::optional<Time> SimState::next_event() const {
    std::optional<Time> t;
    auto consider = [&](const Time& x) {
        if (!t || time_less(x, *t)) t = x;
    };
    if (!pending_issues.empty()) consider(std::get<0>(*pending_issues.begin()));
    if (!running_blocks.empty()) consider(running_blocks.begin()->first);
    if (!running_copies.empty()) consider(running_copies.begin()->first);
    if (slices.switching_to >= 0) consider(slices.switch_end);
    // The running slice's end matters only when another context waits for the engine.
    if (slices.running >= 0 && slices.pending[slices.running] > 0 && another_pending(slices.running))
        consider(time_sum(slices.slice_start, w.contexts[slices.running].timeslice));
    return t;
}

}  // namespace gpuwcrt
