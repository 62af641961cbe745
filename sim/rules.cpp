#include "sim/rules.hpp"

#include <algorithm>

#include "sim/placement.hpp"

namespace gpuwcrt::rules {
namespace {

// The host issues a stream's operations in list order; an operation's issue instant becomes
// known once its predecessor has been issued (or, for after_stream_idle, has completed).
void predecessor_issued(SimState& s, int op) {
    const int next = s.next_in_stream[op];
    if (next < 0) return;
    const IssueSpec& is = s.w.ops[next].issue;
    if (is.kind == IssueSpec::Kind::with_previous) s.set_issue_at(next, s.now);
    if (is.kind == IssueSpec::Kind::at) {
        Time at = next < static_cast<int>(s.scenario.issue_at.size()) && s.scenario.issue_at[next]
                      ? *s.scenario.issue_at[next]
                      : is.at.lo;
        s.set_issue_at(next, time_less(at, s.now) ? s.now : at);
    }
}

void operation_completed(SimState& s, int op) {
    s.completed[op] = 1;
    s.out.ops[op].finish = s.now;
    s.pop_completed(op);
    w1_waits_done(s, op);
    const int next = s.next_in_stream[op];
    if (next < 0) return;
    const IssueSpec& is = s.w.ops[next].issue;
    if (is.kind != IssueSpec::Kind::after_stream_idle) return;
    // In a frame, the host starts waiting for the idle stream at the frame's release.
    const Time& from = is.release && time_less(s.now, is.release->lo) ? is.release->lo : s.now;
    s.set_issue_at(next, time_sum(from, is.delay));
}

}  // namespace

void w1_waits_done(SimState& s, int op) {
    if (s.waiters.empty()) return;
    for (int d : s.waiters[op]) {
        if (--s.waits_left[d] > 0 || !s.issued[d]) continue;
        if (s.stream_queue[s.w.ops[d].stream].front() == d) s.may_join(d);
    }
}

void g4_c4_complete(SimState& s) {
    if (!s.running_blocks.empty() && time_equal(s.running_blocks.begin()->first, s.now)) {
        // Completions add no block, so the blocks ending now are all in this one entry.
        const std::vector<RunningBlock> ending = std::move(s.running_blocks.begin()->second);
        s.running_blocks.erase(s.running_blocks.begin());
        for (const RunningBlock& b : ending) {
            s.sm[b.sm].remove(s.w.ops[b.kernel].demand());
            if (++s.blocks_done[b.kernel] == s.w.ops[b.kernel].blocks) operation_completed(s, b.kernel);
        }
    }
    while (!s.running_copies.empty() && time_equal(s.running_copies.begin()->first, s.now)) {
        int op = s.running_copies.begin()->second;
        s.running_copies.erase(s.running_copies.begin());
        s.engine_op[s.out.ops[op].engine] = -1;
        operation_completed(s, op);
    }
}

bool g1_issue(SimState& s) {
    bool any = false;
    // pending_issues is ordered by (instant, rank, index): its head is the next to issue.
    while (!s.pending_issues.empty() && time_equal(std::get<0>(*s.pending_issues.begin()), s.now)) {
        const int pick = std::get<2>(*s.pending_issues.begin());
        s.pending_issues.erase(s.pending_issues.begin());
        s.issued[pick] = 1;
        s.out.ops[pick].issue = s.now;
        s.out.ops[pick].launch_seq = s.next_launch_seq++;
        s.out.launch_order.push_back(pick);
        s.push_issued(pick);
        predecessor_issued(s, pick);
        any = true;
    }
    return any;
}

bool n1_n2_may_join(const SimState& s, int kernel) {
    // The NULL stream synchronises the streams of its own context only (docs/theory/semantics.md §10).
    const int c = s.context_of(kernel);
    const int null_stream = s.null_stream[c];
    if (null_stream < 0) return true;
    const long seq = s.out.ops[kernel].launch_seq;
    const auto& fronts = s.other_fronts[c];
    if (s.w.ops[kernel].stream == null_stream)  // N1: every other stream's head launched after it
        return fronts.empty() || fronts.begin()->first > seq;
    const StreamQueue& q = s.stream_queue[null_stream];  // N2
    return q.empty() || s.out.ops[q.front()].launch_seq > seq;
}

bool g2_a1_c1_admit_stream_heads(SimState& s) {
    // Only heads not yet joined are looked at (SimState keeps them), copies always join (C1).
    std::vector<int> joining;
    joining.swap(s.waiting_copies);
    std::vector<char> held;  // per context, with slices: N2 holds back its kernels launched later
    for (auto it = s.waiting_kernels.begin(); it != s.waiting_kernels.end();) {
        const int head = it->second;
        const int c = s.context_of(head);
        if (!held.empty() && held[c]) {
            ++it;
        } else if (n1_n2_may_join(s, head)) {
            joining.push_back(head);
            it = s.waiting_kernels.erase(it);
        } else if (s.w.ops[head].stream != s.null_stream[c]) {
            if (!s.slices.on) break;  // N2 holds it back, and with it every kernel launched later
            held.resize(s.slices.pending.size(), 0);
            held[c] = 1;
            ++it;
        } else {
            ++it;
        }
    }
    std::sort(joining.begin(), joining.end(),
              [&](int a, int b) { return s.out.ops[a].launch_seq < s.out.ops[b].launch_seq; });
    for (int op : joining) {
        s.joined[op] = 1;
        const Operation& o = s.w.ops[op];
        if (!o.is_kernel()) s.ce_queue.push_back(op);
        else s.ee_queue[s.context_of(op)][s.w.streams[o.stream].priority == Priority::high ? 0 : 1].push_back(op);
    }
    return !joining.empty();
}

bool c2_c3_start_copies(SimState& s) {
    bool any = false;
    for (std::size_t e = 0; e < s.engine_op.size() && !s.ce_queue.empty(); ++e) {
        if (s.engine_op[e] >= 0) continue;
        int op = s.ce_queue.front();
        s.ce_queue.pop_front();
        s.engine_op[e] = op;
        s.out.ops[op].start = s.now;
        s.out.ops[op].engine = static_cast<int>(e);
        s.running_copies.emplace(time_sum(s.now, s.block_time(op, 0)), op);  // a copy's duration: its one "block"
        any = true;
    }
    return any;
}

void r_fitting_sms(const SimState& s, int kernel, std::vector<int>& out) {
    out.clear();
    const BlockDemand d = s.w.ops[kernel].demand();
    for (std::size_t i = 0; i < s.sm.size(); ++i)
        if (s.sm[i].fits(d, s.w.platform)) out.push_back(static_cast<int>(i));
}

std::vector<int> r_fitting_sms(const SimState& s, int kernel) {
    std::vector<int> out;
    r_fitting_sms(s, kernel, out);
    return out;
}

bool x1_a2_g3_dispatch_blocks(SimState& s) {
    bool any = false;
    const int context = s.slices.dispatching();  // only the context holding the compute engine (T1)
    if (context < 0) return false;
    auto& queues = s.ee_queue[context];
    std::vector<int> fitting;
    for (;;) {
        auto q = std::find_if(queues.begin(), queues.end(), [](const auto& x) { return !x.empty(); });
        if (q == queues.end()) return any;
        const int k = q->front();
        const Operation& kernel = s.w.ops[k];
        std::optional<Time> common_end;           // without per-block times, every block dispatched now ends together
        SimState::EndingBlocks::iterator ending;  // the entry of running_blocks at common_end
        while (s.next_block[k] < kernel.blocks) {
            r_fitting_sms(s, k, fitting);
            if (fitting.empty()) return any;
            const std::int64_t j = s.next_block[k]++;
            const int sm = place_block(s, k, j, fitting);
            s.round_robin_last = sm;
            s.sm[sm].add(kernel.demand());
            if (!common_end || s.scenario.block_time) {
                common_end = time_sum(s.now, s.block_time(k, j));
                ending = s.running_blocks.try_emplace(*common_end).first;
            }
            const Time& end = *common_end;
            const auto record = s.keep_blocks ? static_cast<std::int64_t>(s.out.blocks.size()) : -1;
            ending->second.push_back(RunningBlock{k, sm, record});
            if (j == 0) s.out.ops[k].start = s.now;
            if (s.keep_blocks) s.out.blocks.push_back({k, j, sm, s.now, end});
            any = true;
        }
        q->pop_front();  // G3: fully dispatched
    }
}

}  // namespace gpuwcrt::rules
