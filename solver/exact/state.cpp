#include "solver/exact/state.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "solver/exact/varint.hpp"

namespace gpuwcrt::exact {
namespace {

bool issued_open(Phase ph) { return ph == Phase::issued || ph == Phase::queued; }

// No absolute issue instant lies ahead: every operation whose issue is still unknown is issued
// relative to its stream (with_previous, after_stream_idle, or `at` already passed).
bool shift_invariant(const Problem& p, const State& s) {
    for (int i = 0; i < p.n; ++i) {
        if (s.ops[i].phase != Phase::unknown) continue;
        const IssueSpec& is = p.w->ops[i].issue;
        // An issue at max(chosen instant, predecessor's issue): relative only when every instant
        // of the window has passed.
        if (is.kind == IssueSpec::Kind::at && p.times.issue_hi[i] > s.now) return false;
    }
    return true;
}

}  // namespace

int State::level() const {
    int n = 0;
    for (const OpState& o : ops) n += o.phase == Phase::determined || o.phase == Phase::completed;
    return n;
}

State initial_state(const Problem& p) {
    State s;
    s.ops.resize(p.n);
    s.sm.resize(p.w->platform.sms);
    for (int op : p.first_ops) {
        const IssueSpec& is = p.w->ops[op].issue;
        s.ops[op].phase = Phase::pending;
        s.ops[op].issue = is.kind == IssueSpec::Kind::after_stream_idle ? p.times.delay[op] : p.times.issue_lo[op];
    }
    return s;
}

std::vector<int> canonicalise(const Problem& p, State& s) {
    for (auto& blocks : s.sm) std::sort(blocks.begin(), blocks.end());
    std::vector<int> order(s.sm.size());
    std::iota(order.begin(), order.end(), 0);
    if (p.policy == Policy::chooser) {
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return s.sm[a] < s.sm[b]; });
        std::vector<std::vector<RunningBlock>> sorted;
        sorted.reserve(s.sm.size());
        for (int i : order) sorted.push_back(std::move(s.sm[i]));
        s.sm = std::move(sorted);
    }
    for (Queue& q : s.queues)
        for (Group& g : q.groups) std::sort(g.begin(), g.end());
    if (p.eager) {  // launch positions: only their order among live operations counts
        std::vector<std::pair<std::int64_t, int>> live;
        for (int i = 0; i < p.n; ++i) {
            const Phase ph = s.ops[i].phase;
            if (ph == Phase::issued || ph == Phase::queued || ph == Phase::determined)
                live.emplace_back(s.ops[i].seq, i);
            else s.ops[i].seq = 0;
        }
        std::sort(live.begin(), live.end());
        for (std::size_t r = 0; r < live.size(); ++r) s.ops[live[r].second].seq = static_cast<std::int64_t>(r);
        s.next_seq = static_cast<std::int64_t>(live.size());
    }
    return order;
}

void encode(const Problem& p, const State& s, Encoded& e) {
    e.key.clear();
    e.issues.clear();
    std::string& k = e.key;
    const bool shift = shift_invariant(p, s);
    put_varint(k, (s.mid ? 1 : 0) | (shift ? 2 : 0));
    if (!shift) put_varint(k, s.now);
    put_varint(k, s.rr_last);
    // Lazy mode: operations issued but not yet joined form groups by issue instant when they
    // join, so the order pattern of their issue instants is part of the future.
    thread_local std::vector<std::int64_t> waiting;
    waiting.clear();
    if (!p.eager)
        for (const OpState& o : s.ops)
            if (o.phase == Phase::issued) waiting.push_back(o.issue);
    std::sort(waiting.begin(), waiting.end());
    waiting.erase(std::unique(waiting.begin(), waiting.end()), waiting.end());
    for (int i = 0; i < p.n; ++i) {
        const OpState& o = s.ops[i];
        put_varint(k, static_cast<std::int64_t>(o.phase));
        switch (o.phase) {
            case Phase::pending:
                put_varint(k, o.issue - s.now);
                break;
            case Phase::issued:
            case Phase::queued:
                e.issues.push_back(o.issue - s.now);
                if (p.eager) put_varint(k, o.seq);
                else if (o.phase == Phase::issued)
                    put_varint(k, std::lower_bound(waiting.begin(), waiting.end(), o.issue) - waiting.begin());
                if (o.phase == Phase::queued && p.kernel[i]) {
                    put_varint(k, o.aux);
                    if (p.ranges && o.aux > 0) put_varint(k, o.last_end - s.now);
                }
                break;
            case Phase::determined:
                put_varint(k, o.aux - s.now);
                if (p.eager) put_varint(k, o.seq);
                break;
            default:
                break;
        }
    }
    for (const Queue& q : s.queues) {
        put_varint(k, q.head);
        put_varint(k, static_cast<std::int64_t>(q.groups.size()));
        for (const Group& g : q.groups) {
            put_varint(k, static_cast<std::int64_t>(g.size()));
            for (int op : g) put_varint(k, op);
        }
    }
    for (const auto& blocks : s.sm) {
        put_varint(k, static_cast<std::int64_t>(blocks.size()));
        for (const RunningBlock& b : blocks) {
            put_varint(k, b.end - s.now);
            put_varint(k, b.threads);
            put_varint(k, b.shared_mem);
            put_varint(k, b.registers);
            put_varint(k, b.blocks);
        }
    }
}

Encoded encode(const Problem& p, const State& s) {
    Encoded e;
    encode(p, s, e);
    return e;
}

void decode(const Problem& p, std::string_view key, std::int64_t now, std::string_view issue_bytes, State& s) {
    VarintReader r{key}, issues{issue_bytes};
    const std::int64_t flags = r.get();
    s.mid = flags & 1;
    if (!(flags & 2)) r.get();  // `now` itself, known from the caller
    s.now = now;
    s.rr_last = static_cast<int>(r.get());
    s.ops.assign(p.n, OpState{});
    std::int64_t max_seq = -1;
    for (int i = 0; i < p.n; ++i) {
        OpState& o = s.ops[i];
        o.phase = static_cast<Phase>(r.get());
        switch (o.phase) {
            case Phase::pending:
                o.issue = now + r.get();
                break;
            case Phase::issued:
            case Phase::queued:
                o.issue = now + issues.get();
                if (p.eager) o.seq = r.get();
                else if (o.phase == Phase::issued) r.get();
                if (o.phase == Phase::queued && p.kernel[i]) {
                    o.aux = r.get();
                    if (p.ranges && o.aux > 0) o.last_end = now + r.get();
                }
                break;
            case Phase::determined:
                o.aux = now + r.get();
                if (p.eager) o.seq = r.get();
                break;
            default:
                break;
        }
        if (p.eager && issued_open(o.phase)) max_seq = std::max(max_seq, o.seq);
        if (p.eager && o.phase == Phase::determined) max_seq = std::max(max_seq, o.seq);
    }
    s.next_seq = max_seq + 1;
    for (Queue& q : s.queues) {
        q.head = static_cast<int>(r.get());
        q.groups.resize(static_cast<std::size_t>(r.get()));
        for (Group& g : q.groups) {
            g.resize(static_cast<std::size_t>(r.get()));
            for (int& op : g) op = static_cast<int>(r.get());
        }
    }
    s.sm.resize(p.w->platform.sms);
    for (auto& blocks : s.sm) {
        blocks.resize(static_cast<std::size_t>(r.get()));
        for (RunningBlock& b : blocks) {
            b.end = now + r.get();
            b.threads = r.get();
            b.shared_mem = r.get();
            b.registers = r.get();
            b.blocks = r.get();
        }
    }
}

bool dominates(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b) {
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i] > b[i]) return false;
    return true;
}

}  // namespace gpuwcrt::exact
