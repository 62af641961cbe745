#include "bounds/abstraction/transition.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <optional>

#include "bounds/abstraction/dispatch.hpp"
#include "bounds/abstraction/merge.hpp"

namespace gpuwcrt::abstraction {
namespace {

// When the host issues `op` and when it joins its EE or CE queue (G1, G2/C1 with G4/C4 of its
// stream predecessor), from the stream's last dispatched operation. Mirrors
// sim/rules.cpp predecessor_issued / operation_completed and sim/simulate.cpp
// seed_first_issues, each with max and + only.
struct Arrival {
    Interval issue, join;
};

// `op` after its stream predecessor, issued in `prev_issue` and completed in `prev_done`.
Arrival arrival_after(const Problem& p, int op, const Interval& prev_issue, const Interval& prev_done) {
    const IntegerTimes& t = p.times;
    Interval issue;
    switch (p.w.ops[op].issue.kind) {
        case IssueSpec::Kind::at:
            issue = max_of(Interval{t.issue_lo[op], t.issue_hi[op]}, prev_issue);
            break;
        case IssueSpec::Kind::with_previous:
            issue = prev_issue;
            break;
        case IssueSpec::Kind::after_stream_idle:
            issue = plus(prev_done, {t.delay[op], t.delay[op]});
            break;
    }
    return {issue, max_of(issue, prev_done)};  // joins once issued and at the head (G4/C4 of pred)
}

Arrival arrival(const Problem& p, const AbstractState& x, int op) {
    const IntegerTimes& t = p.times;
    const IssueSpec& is = p.w.ops[op].issue;
    const int st = p.w.ops[op].stream;
    if (p.pred[op] < 0) {
        Interval issue = is.kind == IssueSpec::Kind::after_stream_idle ? Interval{t.delay[op], t.delay[op]}
                         : is.kind == IssueSpec::Kind::at              ? Interval{t.issue_lo[op], t.issue_hi[op]}
                                                                       : Interval{t.issue_lo[op], t.issue_lo[op]};
        return {issue, issue};
    }
    return arrival_after(p, op, x.stream_issue[st], x.stream_done[st]);
}

// Calls `f` with each cut, or, when there are more than `groups` (abstract mode), with the hulls
// of at most `groups` runs of consecutive ones: each run's high kernel is then dispatched once.
// The hull contains every cut it replaces, and the block count is a range in the state, so
// nothing is lost but precision.
template <class F>
void for_each_coalesced(const std::vector<const Interrupt*>& cuts, int groups, bool concrete, F f) {
    if (concrete || static_cast<int>(cuts.size()) <= groups) {
        for (const Interrupt* c : cuts) f(*c);
        return;
    }
    const std::size_t n = cuts.size(), g = static_cast<std::size_t>(groups);
    for (std::size_t b = 0; b < g; ++b) {
        const std::size_t first = b * n / g, last = (b + 1) * n / g;
        if (first == last) continue;
        Interrupt h = *cuts[first];
        for (std::size_t c = first + 1; c < last; ++c) {
            h.blocks = hull(h.blocks, cuts[c]->blocks);
            h.latest_start = std::max(h.latest_start, cuts[c]->latest_start);
            h.at = PartialOps::hull(h.at, cuts[c]->at);
        }
        f(h);
    }
}

// Problem::done_cap: every concrete run completes `op` by it, so its completion is clamped to
// it, and so is its last start (at least one shortest duration earlier); false when the edge
// cannot meet it, so that no concrete run follows the edge.
bool within_cap(const Problem& p, int op, Interval& done, Interval& last_start) {
    const std::int64_t cap = p.done_cap[op];
    if (cap == never) return true;
    done.hi = std::min(done.hi, cap);
    last_start.hi = std::min(last_start.hi, cap - duration_of(p, op).lo);
    return done.lo <= done.hi && last_start.lo <= last_start.hi;
}

struct Candidate {
    int op;
    Arrival a;
    // false: join.hi holds only where no undispatched operation was launched before it that it
    // waits for (N1/N2); elsewhere it joins later (then that operation is dispatched first, on
    // another path). Its join.lo always holds.
    bool certain = true;
};

// Which queued operation of one queue may be next (FIFO by join instant; joins at one instant
// in launch order, which ranges over every order): one whose earliest join is not after every
// concretisation's join of another candidate.
std::vector<Candidate> possible_next(const Problem& p, std::vector<Candidate> c) {
    std::int64_t min_hi = never;
    for (const Candidate& x : c)
        if (x.certain) min_hi = std::min(min_hi, x.a.join.hi);
    std::erase_if(c, [&](const Candidate& x) { return x.a.join.lo > min_hi; });
    // Next in a FIFO by join means joined no later than every other candidate: on this path
    // its join is at most theirs (docs/theory/abstraction.md, Transitions 2).
    for (Candidate& x : c) x.a.join.hi = std::min(x.a.join.hi, min_hi);
    if (p.mutation == AbstractionMutation::fifo_strict && c.size() > 1) {  // tests only: ties keep one order
        const Candidate first = c.front();
        std::erase_if(c, [&](const Candidate& x) { return x.a.join.lo >= min_hi; });
        if (c.empty() || c.front().op != first.op) c.insert(c.begin(), first);
    }
    return c;
}

// Per stream: its first operation not dispatched (-1: none) and its last dispatched one.
struct StreamFronts {
    std::vector<int> first_open, last_dispatched;
};

StreamFronts stream_fronts(const Problem& p, const OpSet& s) {
    StreamFronts f{std::vector<int>(p.streams, -1), std::vector<int>(p.streams, -1)};
    for (int op = 0; op < static_cast<int>(p.w.ops.size()); ++op) {
        const int st = p.w.ops[op].stream;
        if (has(s, op)) f.last_dispatched[st] = op;
        else if (f.first_open[st] < 0) f.first_open[st] = op;
    }
    return f;
}

// N1/N2 (docs/theory/semantics.md §4 step 3, sim/rules.cpp n1_n2_may_join): a NULL-stream kernel joins once every
// operation of the other streams launched before it has completed, a kernel of another stream
// once every NULL-stream operation launched before it has. Sets the kernel's join with these
// waits (and whether an undispatched operation may have been launched before it), or returns
// false when it cannot be the next of its queue (an operation certainly launched before it is
// not even dispatched). docs/theory/abstraction.md, "The NULL stream".
bool null_join(const Problem& p, const AbstractState& x, const StreamFronts& f, Candidate& k) {
    const int op = k.op;
    const Arrival& a = k.a;
    Interval join = a.join;
    if (p.null_stream < 0) return true;
    const bool is_null = p.w.ops[op].stream == p.null_stream;
    if (x.low_op >= 0 && (is_null || p.w.ops[x.low_op].stream == p.null_stream))
        return false;  // the interrupted low kernel joined, so it was launched before `op`, or `op` (NULL) before it
    auto wait_for = [&](int st) {
        if (const int c = f.first_open[st]; c >= 0) {
            const Interval ci = arrival(p, x, c).issue;
            if (ci.hi < a.issue.lo) return false;        // certainly launched before: it must complete first
            if (ci.lo <= a.issue.hi) k.certain = false;  // maybe launched before: then `op` joins later
        }
        const int m = f.last_dispatched[st];
        if (m < 0) return true;
        // Every earlier operation of st completed before m (G4/C4), so m's completion bounds the
        // wait from above; from below only when m was certainly launched before `op`: a
        // dispatched kernel always was (launched after, it would have waited for `op`), a copy
        // when issued strictly earlier.
        join.hi = std::max(join.hi, x.stream_done[st].hi);
        if (p.w.ops[m].is_kernel() || x.stream_issue[st].hi < a.issue.lo)
            join.lo = std::max(join.lo, x.stream_done[st].lo);
        return true;
    };
    if (!is_null) {
        if (!wait_for(p.null_stream)) return false;
    } else {
        for (int st = 0; st < p.streams; ++st)
            if (st != p.null_stream && !wait_for(st)) return false;
    }
    k.a.join = join;
    return true;
}

// The latest instant at which the next block of `k` (from `from` on) starts when nothing
// interrupts: the earliest fit over SMs with every unit at its latest availability.
std::int64_t latest_fit(const Problem& p, const std::vector<SmState>& sms, int k, std::int64_t from) {
    std::int64_t t = never;
    for (const SmState& sm : sms) t = std::min(t, fit_instant(p, sm, k, true, from));
    return t;
}

// The operations that may be dispatched next, by queue: EE high and low, CE.
struct Candidates {
    std::vector<Candidate> high, low, copies;
};

Candidates candidates(const Problem& p, const OpSet& s, const AbstractState& x) {
    const StreamFronts fronts = stream_fronts(p, s);
    Candidates q;
    for (int op = 0; op < static_cast<int>(p.w.ops.size()); ++op) {
        if (has(s, op) || op == x.low_op || (p.pred[op] >= 0 && !has(s, p.pred[op]))) continue;
        Arrival a = arrival(p, x, op);
        if (!p.w.ops[op].is_kernel()) {
            q.copies.push_back({op, a});
            continue;
        }
        Candidate c{op, a};
        if (!null_join(p, x, fronts, c)) continue;
        // One EE queue unless kernels of both levels exist (then A1: one per priority).
        (p.two_queues && p.high[op] ? q.high : q.low).push_back(c);
    }
    return q;
}

// The low queue's next kernel: the interrupted one, else any that may be first (FIFO).
struct LowHead {
    int op;
    Interval issue;
    Partial start;
    Interval dispatched;  // blocks already out (a range after coalesced cuts)
    bool certain = true;
};

std::vector<LowHead> low_heads(const Problem& p, const AbstractState& x, const std::vector<Candidate>& low) {
    std::vector<LowHead> heads;
    if (x.low_op >= 0) {
        heads.push_back(
            {x.low_op, arrival(p, x, x.low_op).issue, {x.sms, x.ee_free, x.low_done, x.low_sm}, x.low_blocks});
    } else {
        for (const Candidate& c : possible_next(p, low))  // EE head once the previous kernel is dispatched
            heads.push_back({c.op, c.a.issue, {x.sms, max_of(c.a.join, x.ee_free), {0, 0}, {}}, {0, 0}, c.certain});
    }
    return heads;
}

Gate high_gate(const std::vector<Candidate>& high, const std::vector<Candidate>& high_next) {
    Gate gate;
    for (const Candidate& c : high_next) gate.next_join_lo = std::min(gate.next_join_lo, c.a.join.lo);
    for (const Candidate& c : high)
        if (c.certain) gate.join_hi = std::min(gate.join_hi, c.a.join.hi);
    return gate;
}

// What the parts of one successors() call share: the problem, the state and where to emit.
struct Expansion {
    const Problem& p;
    const AbstractState& x;
    int partial_cap;
    bool concrete;
    const Budget& budget;  // checked inside a kernel's dispatch: one transition may place 10^5 blocks
    std::vector<Successor>& out;
    // Rule 3 (docs/theory/abstraction.md): the latest start of the next copy on the path; a unit
    // placed before it has its instant T no later (never: no copy is pending).
    std::int64_t next_copy_hi = never;
    // Rule 4: a high kernel behind a candidate copy has joined by this instant; a low block of
    // this edge precedes it in EE order, so it started earlier (never: no such kernel).
    std::int64_t behind_copy_join_hi = never;

    // `unit_lo`: a lower bound on the instant T of the dispatch unit this edge closes.
    void emit_kernel(int op, const Interval& issue, Partial& q, const AbstractState& base, std::int64_t unit_lo) const {
        if (!within_cap(p, op, q.done, q.prev)) return;
        Successor n{op, {}, issue, q.done, std::move(q.block_sm)};
        n.state.rest() = base.rest();  // the SMs come from the dispatch: no copy of base's
        n.state.sms = std::move(q.sms);
        n.state.ee_free = q.prev;
        n.state.ee_after_low = p.two_queues && !p.high[op];
        n.state.unit_lo = std::max(base.unit_lo, unit_lo);
        const int st = p.w.ops[op].stream;
        n.state.stream_issue[st] = issue;
        n.state.stream_done[st] = q.done;
        n.state.canonicalise(!concrete);
        out.push_back(std::move(n));
    }

    // High kernel c dispatched whole from `sms`, the EE free from `ee_free` on, after `base`.
    // `after_low`: the last EE dispatch was a low block, started at ee_free.
    void dispatch_high(const Candidate& c, const std::vector<SmState>& sms, const Interval& ee_free, bool after_low,
                       const AbstractState& base) const {
        // c closes a unit: it joined after the start of every copy before it on the path, the
        // last of which started in base.ce_free (docs/theory/abstraction.md, rule 2).
        Interval join = c.a.join;
        if (join.hi < base.ce_free.lo || join.lo > next_copy_hi) return;
        join.lo = std::max(join.lo, base.ce_free.lo);
        join.hi = std::min(join.hi, next_copy_hi);  // rule 3
        // After a low block started at t, every high kernel dispatched next joined after t (else
        // it would have been dispatched instead), so its head instant max(join, t) is its join.
        Interval head = max_of(join, ee_free);
        if (after_low) {
            if (join.hi < ee_free.lo) return;
            head.hi = join.hi;
        }
        for (Partial& q :
             dispatch_kernel(p, {sms, head, {0, 0}, {}}, c.op, {0, 0}, partial_cap, concrete, budget, nullptr, nullptr))
            emit_kernel(c.op, c.a.issue, q, base, join.lo);
    }
};

// A high kernel before the low queue's next block: it joined by the instant that block
// would start (A2: the high queue is served first, joins precede dispatch at one instant).
void high_before_low(const Expansion& e, const std::vector<LowHead>& heads, const std::vector<Candidate>& high_next) {
    if (high_next.empty()) return;
    std::int64_t low_latest = heads.empty() ? never : std::numeric_limits<std::int64_t>::min();
    for (const LowHead& h : heads)  // a head that may join later (N1/N2) gives no such instant
        low_latest = std::max(low_latest, h.certain ? latest_fit(e.p, h.start.sms, h.op, h.start.prev.hi) : never);
    for (const Candidate& c : high_next) {
        if (c.a.join.lo > low_latest) continue;
        e.dispatch_high(c, e.x.sms, e.x.ee_free, e.x.ee_after_low, e.x);
    }
}

// The low queue's next kernel, block by block while no high kernel has joined; cut where
// one may have, and that one dispatched right there.
void low_then_high(const Expansion& e, std::vector<LowHead>& heads, const std::vector<Candidate>& high,
                   const std::vector<Candidate>& high_next) {
    const AbstractState& x = e.x;
    Gate gate = high_gate(high, high_next);
    gate.join_hi = std::min(gate.join_hi, e.behind_copy_join_hi);
    AbstractState cleared = x;  // after a low kernel completes its dispatch
    cleared.low_op = -1, cleared.low_blocks = {0, 0}, cleared.low_done = {0, 0}, cleared.low_sm.clear();
    std::vector<Interrupt> cuts;
    std::vector<const Interrupt*> mine;
    for (LowHead& h : heads) {
        cuts.clear();
        const bool gated = gate.join_hi != never || gate.next_join_lo != never;
        const std::int64_t segment_lo = h.start.prev.lo;  // the segment's first block starts no earlier
        // Rule 3: a final segment placed before the next copy starts no later than that copy.
        const bool final_segment_fits = segment_lo <= e.next_copy_hi;
        for (Partial& q : dispatch_kernel(e.p, std::move(h.start), h.op, h.dispatched, e.partial_cap, e.concrete,
                                          e.budget, gated ? &gate : nullptr, &cuts))
            if (final_segment_fits) e.emit_kernel(h.op, h.issue, q, cleared, segment_lo);
        for (const Candidate& c : high_next) {
            mine.clear();
            for (const Interrupt& cut : cuts)
                if (c.a.join.lo <= cut.latest_start) mine.push_back(&cut);
            for_each_coalesced(mine, e.partial_cap, e.concrete, [&](const Interrupt& cut) {
                AbstractState base = x;
                base.low_op = h.op;
                base.low_blocks = cut.blocks;
                base.low_done = cut.at.done;
                base.low_sm = cut.at.block_sm;
                e.dispatch_high(c, cut.at.sms, cut.at.prev, true, base);
            });
        }
    }
}

// Rule 3: the next copy on the path is the first of the CE queue among those not started; it
// joined no later than any candidate copy, so it starts by the latest of the earliest candidate
// join, the last copy's start and the earliest engine end. Without a candidate copy (or without
// a copy engine) no bound.
std::int64_t next_copy_latest(const AbstractState& x, const std::vector<Candidate>& copies) {
    if (copies.empty() || x.engine_hi.empty()) return never;
    std::int64_t join = never;
    for (const Candidate& c : copies) join = std::min(join, c.a.join.hi);
    return std::max({join, x.ce_free.hi, x.engine_hi[0]});
}

// Rule 4: the latest join of a high kernel H whose stream predecessor is a candidate copy c,
// valid on every path from here (no bound with a NULL stream: N1/N2 may hold H longer). c
// starts once the copies ahead of it in the CE queue have: the first by next_copy_hi (rule 3),
// each next by the end of the one before (its engine is free then), and a candidate copy that
// joins after c is not ahead of it.
std::int64_t behind_copy_join(const Problem& p, const OpSet& s, const std::vector<Candidate>& copies,
                              std::int64_t next_copy_hi) {
    if (!p.two_queues || p.null_stream >= 0 || next_copy_hi == never) return never;
    const int n = static_cast<int>(p.w.ops.size());
    std::int64_t bound = never;
    for (const Candidate& c : copies) {
        const int h = p.next[c.op];
        if (h < 0 || !p.w.ops[h].is_kernel() || !p.high[h]) continue;
        std::int64_t start_hi = next_copy_hi;
        bool overflow = false;
        for (int op = 0; op < n; ++op) {
            if (op == c.op || has(s, op) || p.w.ops[op].is_kernel()) continue;
            const auto other =
                std::find_if(copies.begin(), copies.end(), [&](const Candidate& x) { return x.op == op; });
            if (other != copies.end() && other->a.join.lo > c.a.join.hi) continue;  // joins after c: behind it
            overflow = overflow || __builtin_add_overflow(start_hi, p.times.hi[op], &start_hi);
        }
        start_hi = std::max(start_hi, c.a.join.hi);
        std::int64_t done_hi = 0;
        overflow = overflow || __builtin_add_overflow(start_hi, p.times.hi[c.op], &done_hi);
        // Only upper ends are used, and arrival's max and + take upper ends from upper ends.
        if (!overflow) bound = std::min(bound, arrival_after(p, h, c.a.issue, {done_hi, done_hi}).join.hi);
    }
    return bound;
}

void copy_successors(const Problem& p, const AbstractState& x, const std::vector<Candidate>& copies,
                     std::vector<Successor>& out) {
    for (const Candidate& c : possible_next(p, copies)) {
        if (x.engine_lo.empty()) continue;  // no copy engine: the copy never starts
        // C2/C3: the head copy starts once an engine is idle; FIFO after the previous copy.
        Interval start = max_of(max_of(c.a.join, x.ce_free), {x.engine_lo[0], x.engine_hi[0]});
        const Interval duration = duration_of(p, c.op);
        Interval done = plus(start, duration);
        if (!within_cap(p, c.op, done, start)) continue;
        // Rule 1 (docs/theory/abstraction.md): a copy after a unit on the path started no earlier
        // than that unit's instant T.
        if (start.hi < x.unit_lo) continue;
        start.lo = std::max(start.lo, x.unit_lo);
        done.lo = start.lo + duration.lo;
        Successor n{c.op, x, c.a.issue, done, {}};
        AbstractState& y = n.state;
        y.ce_free = start;
        // The earliest-ending engine takes it: sorted vectors, drop the first, insert, re-sort
        // (componentwise monotone, so the bounds stay bounds).
        y.engine_lo.erase(y.engine_lo.begin());
        y.engine_hi.erase(y.engine_hi.begin());
        y.engine_lo.insert(std::upper_bound(y.engine_lo.begin(), y.engine_lo.end(), done.lo), done.lo);
        y.engine_hi.insert(std::upper_bound(y.engine_hi.begin(), y.engine_hi.end(), done.hi), done.hi);
        const int st = p.w.ops[c.op].stream;
        y.stream_issue[st] = c.a.issue;
        y.stream_done[st] = done;
        out.push_back(std::move(n));
    }
}

}  // namespace

void successors(const Problem& p, const OpSet& s, const AbstractState& x, int partial_cap, const Budget& budget,
                std::vector<Successor>& out, bool concrete) {
    const Candidates q = candidates(p, s, x);
    std::vector<LowHead> heads = low_heads(p, x, q.low);
    const std::vector<Candidate> high_next = possible_next(p, q.high);
    const std::int64_t next_copy_hi = next_copy_latest(x, q.copies);
    const Expansion e{p,      x,   partial_cap,  concrete,
                      budget, out, next_copy_hi, behind_copy_join(p, s, q.copies, next_copy_hi)};
    high_before_low(e, heads, high_next);
    low_then_high(e, heads, q.high, high_next);
    copy_successors(p, x, q.copies, out);
}

}  // namespace gpuwcrt::abstraction
