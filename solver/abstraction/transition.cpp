#include "solver/abstraction/transition.hpp"

#include <algorithm>
#include <cstdlib>

#include "solver/abstraction/merge.hpp"

namespace gpuwcrt::abstraction {
namespace {

// When the host issues `op` and when it joins its EE or CE queue (G1, G2/C1 with G4/C4 of its
// stream predecessor), from the stream's last dispatched operation. Mirrors
// sim/rules.cpp predecessor_issued / operation_completed and sim/simulate.cpp
// seed_first_issues, each with max and + only.
struct Arrival {
    Interval issue, join;
};

Arrival arrival(const Problem& p, const AbstractState& x, int op) {
    const IntegerTimes& t = p.times;
    const IssueSpec& is = p.w.ops[op].issue;
    const int st = p.w.ops[op].stream;
    if (p.pred[op] < 0) {
        Interval issue = is.kind == IssueSpec::Kind::after_stream_idle ? Interval{t.delay[op], t.delay[op]}
                         : is.kind == IssueSpec::Kind::at             ? Interval{t.issue_lo[op], t.issue_hi[op]}
                                                                      : Interval{t.issue_lo[op], t.issue_lo[op]};
        return {issue, issue};
    }
    const Interval prev_issue = x.stream_issue[st], prev_done = x.stream_done[st];
    Interval issue;
    switch (is.kind) {
        case IssueSpec::Kind::at: issue = max_of(Interval{t.issue_lo[op], t.issue_hi[op]}, prev_issue); break;
        case IssueSpec::Kind::with_previous: issue = prev_issue; break;
        case IssueSpec::Kind::after_stream_idle: issue = plus(prev_done, {t.delay[op], t.delay[op]}); break;
    }
    return {issue, max_of(issue, prev_done)};  // joins once issued and at the head (G4/C4 of pred)
}

// Kernel dispatch state between two blocks of one kernel: the SMs, when the previous block
// started (or the kernel became the EE head), and the hull of its block ends so far.
struct Partial {
    std::vector<SmState> sms;
    Interval prev;
    Interval done{0, 0};
    std::vector<int> block_sm;  // concrete mode: the SM (unsorted index) of each block so far
    bool operator==(const Partial&) const = default;
};

struct PartialOps {
    static Partial hull(const Partial& a, const Partial& b) {
        return {abstraction::hull(a.sms, b.sms), abstraction::hull(a.prev, b.prev), abstraction::hull(a.done, b.done), {}};
    }
    static bool contains(const Partial& o, const Partial& i) {
        return abstraction::contains(o.prev, i.prev) && abstraction::contains(o.done, i.done) &&
               abstraction::contains(o.sms, i.sms);
    }
    static std::int64_t distance(const Partial& a, const Partial& b) {
        return std::abs(a.prev.lo - b.prev.lo) + std::abs(a.prev.hi - b.prev.hi) + std::abs(a.done.hi - b.done.hi) +
               abstraction::distance(a.sms, b.sms);
    }
};

// X1/R1-R3 for one kernel: its blocks in index order, each at the earliest instant at which it
// fits on some SM, on any SM where it may fit then (SPEC §5). Returns the possible ends.
std::vector<Partial> dispatch_kernel(const Problem& p, const AbstractState& x, int k, const Interval& head,
                                     int partial_cap, bool concrete) {
    const Operation& kernel = p.w.ops[k];
    const Interval duration{p.times.lo[k], p.times.hi[k]};
    std::vector<Partial> current{{x.sms, head, {0, 0}, {}}};
    free_ended(current[0].sms, head.lo);
    if (!concrete) std::sort(current[0].sms.begin(), current[0].sms.end());
    const int m_count = static_cast<int>(x.sms.size());
    std::vector<std::int64_t> f_lo(m_count), f_hi(m_count);
    for (std::int64_t j = 0; j < kernel.blocks; ++j) {
        Bucket<Partial, PartialOps> next(partial_cap, concrete);
        for (const Partial& q : current) {
            std::int64_t s_lo = never, s_hi = never;
            for (int m = 0; m < m_count; ++m) {
                f_lo[m] = fit_instant(p, q.sms[m], k, false, q.prev.lo);
                f_hi[m] = fit_instant(p, q.sms[m], k, true, q.prev.hi);
                s_lo = std::min(s_lo, f_lo[m]);
                s_hi = std::min(s_hi, f_hi[m]);
            }
            if (s_hi == never) continue;  // fits on no SM even when all is released: no run gets here
            for (int m = 0; m < m_count; ++m) {
                if (f_lo[m] > s_hi) continue;  // cannot have room on m by the latest possible start
                bool symmetric = false;  // an SM in the same state was tried: the same schedule up to renaming
                for (int o = 0; o < m && !symmetric; ++o) symmetric = q.sms[o] == q.sms[m];
                if (symmetric) continue;
                Partial r = q;
                r.prev = {f_lo[m], s_hi};
                const Interval end = plus(r.prev, duration);
                occupy(p, r.sms[m], k, end);
                r.done = j == 0 ? end : max_of(r.done, end);
                free_ended(r.sms, r.prev.lo);
                if (concrete) r.block_sm.push_back(m);
                else std::sort(r.sms.begin(), r.sms.end());
                next.add(std::move(r));
            }
        }
        current = next.take();
    }
    return current;
}

struct Candidate {
    int op;
    Arrival a;
};

// Which queued operation of one queue may be next (FIFO by join instant; joins at one instant
// in launch order, which ranges over every order): one whose earliest join is not after every
// concretisation's join of another candidate.
std::vector<Candidate> possible_next(std::vector<Candidate> c) {
    std::int64_t min_hi = never;
    for (const Candidate& x : c) min_hi = std::min(min_hi, x.a.join.hi);
    std::erase_if(c, [&](const Candidate& x) { return x.a.join.lo > min_hi; });
    return c;
}

}  // namespace

std::int64_t fit_instant(const Problem& p, const SmState& sm, int op, bool late, std::int64_t from) {
    const std::int64_t* v = sm.v.data() + (late ? sm.units() : 0);
    std::int64_t t = from;
    for (const Resource& r : p.resources) {
        const int need = r.need[op];
        if (need == 0) continue;
        if (need > r.units) return never;  // more than a whole SM
        t = std::max(t, v[r.offset + need - 1]);
    }
    return t;
}

void occupy(const Problem& p, SmState& sm, int op, const Interval& end) {
    for (const Resource& r : p.resources) {
        const int need = r.need[op];
        if (need == 0) continue;
        for (const std::size_t base : {std::size_t(0), sm.units()}) {
            const std::int64_t e = base == 0 ? end.lo : end.hi;
            const auto first = sm.v.begin() + static_cast<std::ptrdiff_t>(base) + r.offset, last = first + r.units;
            std::copy(first + need, last, first);                         // the need smallest leave
            std::fill(last - need, last, e);                              // and come back ending at e
            std::rotate(std::upper_bound(first, last - need, e), last - need, last);  // sorted again
        }
    }
}

void successors(const Problem& p, const OpSet& s, const AbstractState& x, int partial_cap,
                std::vector<Successor>& out, bool concrete) {
    std::vector<Candidate> kernels, copies;
    for (int op = 0; op < static_cast<int>(p.w.ops.size()); ++op) {
        if (has(s, op) || (p.pred[op] >= 0 && !has(s, p.pred[op]))) continue;
        (p.w.ops[op].is_kernel() ? kernels : copies).push_back({op, arrival(p, x, op)});
    }
    for (const Candidate& c : possible_next(kernels)) {
        const Interval head = max_of(c.a.join, x.ee_free);  // EE head once the previous kernel is dispatched
        for (Partial& q : dispatch_kernel(p, x, c.op, head, partial_cap, concrete)) {
            Successor n{c.op, x, c.a.issue, q.done, std::move(q.block_sm)};
            n.state.sms = std::move(q.sms);
            n.state.ee_free = q.prev;
            const int st = p.w.ops[c.op].stream;
            n.state.stream_issue[st] = c.a.issue;
            n.state.stream_done[st] = q.done;
            n.state.canonicalise(!concrete);
            out.push_back(std::move(n));
        }
    }
    for (const Candidate& c : possible_next(copies)) {
        if (x.engine_lo.empty()) continue;  // no copy engine: the copy never starts
        // C2/C3: the head copy starts once an engine is idle; FIFO after the previous copy.
        const Interval start = max_of(max_of(c.a.join, x.ce_free), {x.engine_lo[0], x.engine_hi[0]});
        const Interval done = plus(start, {p.times.lo[c.op], p.times.hi[c.op]});
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

}  // namespace gpuwcrt::abstraction
