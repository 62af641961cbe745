#include "solver/exact/step.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "sim/placement.hpp"

namespace gpuwcrt::exact {
namespace {

struct Ctx {
    const Problem& p;
    State& s;
    Decider& d;
    Observer* ob;
    StepOutcome& out;
};

int choose(Ctx& c, int options) { return options <= 1 ? 0 : c.d.pick(options); }

// Intervals (docs/theory/exact-engine.md, "Intervals and windows"): a value of the tick grid in [lo, hi].
std::int64_t choose_in(Ctx& c, std::int64_t lo, std::int64_t hi) {
    return lo + choose(c, static_cast<int>(hi - lo + 1));
}

bool has_window(const Problem& p, int op) {
    return p.w->ops[op].issue.kind == IssueSpec::Kind::at && p.times.issue_lo[op] < p.times.issue_hi[op];
}

std::optional<std::int64_t> next_event(const Problem& p, const State& s) {
    std::optional<std::int64_t> t;
    auto consider = [&](std::int64_t x) {
        if (!t || x < *t) t = x;
    };
    for (int i = 0; i < p.n; ++i) {
        if (s.ops[i].phase == Phase::pending) consider(s.ops[i].issue);
        if (s.ops[i].phase == Phase::determined) consider(s.ops[i].aux);
    }
    for (const auto& blocks : s.sm)
        if (!blocks.empty()) consider(blocks.front().end);
    return t;
}

// The head of a stream's queue: its first operation not completed, if issued (G1, G4).
int stream_head(const Problem& p, const State& s, int first) {
    for (int op = first; op >= 0; op = p.next_in_stream[op]) {
        const Phase ph = s.ops[op].phase;
        if (ph == Phase::completed) continue;
        return ph == Phase::unknown || ph == Phase::pending ? -1 : op;
    }
    return -1;
}

// Step 1 — G4/C4: blocks ending now release their SM; an operation whose completion instant is
// now leaves its stream; an after_stream_idle successor is then issued `delay` later.
void g4_c4_complete(Ctx& c) {
    for (auto& blocks : c.s.sm)
        blocks.erase(
            std::remove_if(blocks.begin(), blocks.end(), [&](const RunningBlock& b) { return b.end == c.s.now; }),
            blocks.end());
    for (int i = 0; i < c.p.n; ++i) {
        OpState& o = c.s.ops[i];
        if (o.phase != Phase::determined || o.aux != c.s.now) continue;
        o.phase = Phase::completed;
        const int next = c.p.next_in_stream[i];
        if (next >= 0 && c.p.w->ops[next].issue.kind == IssueSpec::Kind::after_stream_idle &&
            c.s.ops[next].phase == Phase::unknown) {
            c.s.ops[next].phase = Phase::pending;
            c.s.ops[next].issue = c.s.now + c.p.times.delay[next];
        }
    }
}

// Step 2 — G1: operations issued now join their stream queues; the next operation of the stream
// becomes known (with_previous: now; `at`: its instant, or now if that has passed). In eager
// mode the launch order among them is chosen here, consistent with stream order.
void g1_issue(Ctx& c) {
    thread_local std::vector<int> now_issued;  // scratch: a step runs millions of times
    now_issued.clear();
    for (bool more = true; more;) {
        more = false;
        for (int i = 0; i < c.p.n; ++i) {
            OpState& o = c.s.ops[i];
            if (o.phase != Phase::pending || o.issue != c.s.now) continue;
            o.phase = Phase::issued;
            now_issued.push_back(i);
            more = true;
            const int next = c.p.next_in_stream[i];
            if (next < 0 || c.s.ops[next].phase != Phase::unknown) continue;
            const IssueSpec& is = c.p.w->ops[next].issue;
            if (is.kind == IssueSpec::Kind::with_previous) c.s.ops[next] = {Phase::pending, c.s.now, 0, 0};
            if (is.kind == IssueSpec::Kind::at) {
                // Issued at max(chosen instant, now): every instant of the window up to now gives `now`.
                const std::int64_t lo = std::max(c.p.times.issue_lo[next], c.s.now);
                const std::int64_t at = has_window(c.p, next) && c.p.times.issue_hi[next] > lo
                                            ? choose_in(c, lo, c.p.times.issue_hi[next])
                                            : lo;
                c.s.ops[next] = {Phase::pending, at, 0, 0};
            }
        }
    }
    std::sort(now_issued.begin(), now_issued.end());  // stream order is index order within a stream
    if (!c.p.eager) {
        if (c.ob)
            for (int op : now_issued) c.ob->issued(op, c.s.now);
        return;
    }
    while (!now_issued.empty()) {
        std::vector<int> ready;  // not preceded in its stream by another one issued now
        for (int op : now_issued) {
            bool first = true;
            for (int other : now_issued) first = first && !(other < op && c.p.stream[other] == c.p.stream[op]);
            if (first) ready.push_back(op);
        }
        const int op = ready[choose(c, static_cast<int>(ready.size()))];
        c.s.ops[op].seq = c.s.next_seq++;
        now_issued.erase(std::find(now_issued.begin(), now_issued.end(), op));
        if (c.ob) c.ob->issued(op, c.s.now);
    }
}

// N1/N2 (eager mode): may the kernel at the head of its stream join its EE queue now?
bool n1_n2_may_join(const Ctx& c, int kernel) {
    const std::int64_t seq = c.s.ops[kernel].seq;
    if (c.p.stream[kernel] == c.p.null_stream) {  // N1: every other head launched after it
        for (int first : c.p.first_ops) {
            if (c.p.stream[first] == c.p.null_stream) continue;
            const int h = stream_head(c.p, c.s, first);
            if (h >= 0 && c.s.ops[h].seq < seq) return false;
        }
        return true;
    }
    for (int first : c.p.first_ops) {  // N2: the NULL stream's head, if any, launched after it
        if (c.p.stream[first] != c.p.null_stream) continue;
        const int h = stream_head(c.p, c.s, first);
        return h < 0 || c.s.ops[h].seq > seq;
    }
    return true;
}

// W1: every operation `op` waits on has completed (completions come first in an instant).
bool waits_done(const Ctx& c, int op) {
    for (const int d : c.p.waits[op])
        if (c.s.ops[d].phase != Phase::completed) return false;
    return true;
}

// Step 3 — G2/A1 (EE queue of the stream's priority), N1/N2, C1 (copies to the CE queue).
// Joiners of one instant enter in launch order: by issue instant, then (lazy mode) as one
// group per issue instant whose order is chosen when a member becomes the head.
void g2_a1_c1_admit(Ctx& c) {
    thread_local std::vector<int> joining;
    joining.clear();
    for (int first : c.p.first_ops) {
        const int h = stream_head(c.p, c.s, first);
        if (h < 0 || c.s.ops[h].phase != Phase::issued) continue;
        if (!waits_done(c, h)) continue;
        if (c.p.eager && c.p.kernel[h] && !n1_n2_may_join(c, h)) continue;
        joining.push_back(h);
    }
    auto key = [&](int op) { return c.p.eager ? c.s.ops[op].seq : c.s.ops[op].issue; };
    std::sort(joining.begin(), joining.end(),
              [&](int a, int b) { return std::pair(key(a), a) < std::pair(key(b), b); });
    std::array<std::optional<std::int64_t>, 3> last_key;
    for (int op : joining) {
        c.s.ops[op].phase = Phase::queued;
        c.s.ops[op].aux = 0;
        Queue& q = c.s.queues[c.p.queue[op]];
        auto& last = last_key[c.p.queue[op]];
        if (c.p.eager || !last || *last != key(op)) q.groups.emplace_back();
        q.groups.back().push_back(op);
        last = key(op);
        if (c.ob) c.ob->joined(op, c.s.now);
    }
}

int take_head(Ctx& c, Queue& q) {
    Group& g = q.groups.front();
    const int at = choose(c, static_cast<int>(g.size()));
    const int op = g[at];
    g.erase(g.begin() + at);
    if (g.empty()) q.groups.erase(q.groups.begin());
    if (c.ob) c.ob->picked(op);
    return op;
}

// Step 4 — C2/C3: idle copy engines take the head of the CE queue; the copy is determined.
bool c2_c3_start_copies(Ctx& c) {
    int running = 0;
    for (int i = 0; i < c.p.n; ++i) running += !c.p.kernel[i] && c.s.ops[i].phase == Phase::determined;
    bool any = false;
    Queue& q = c.s.queues[ce];
    while (running < c.p.copy_engines && !q.groups.empty()) {
        const int op = take_head(c, q);
        OpState& o = c.s.ops[op];
        o.phase = Phase::determined;
        const std::int64_t duration = choose_in(c, c.p.duration_lo[op], c.p.duration[op]);
        o.aux = c.s.now + duration;
        if (c.ob) c.ob->timed(op, duration);
        c.out.responses.emplace_back(op, o.aux - o.issue);
        ++running;
        any = true;
    }
    return any;
}

SmUsage usage(const Problem& p, const std::vector<RunningBlock>& blocks) {
    SmUsage u;
    for (const RunningBlock& b : blocks) {
        u.threads += b.threads;
        u.shared_mem += b.shared_mem;
        u.registers += b.registers;
        u.blocks += b.blocks;
    }
    (void)p;
    return u;
}

// Every split of m blocks over the SMs within their room, once per class of identical SMs
// (counts non-increasing over identical SMs: other splits give the same canonical state), in a
// fixed order. Counts them (target < 0), or stops at split number `target`, left in `cur`.
long splits(const std::vector<std::int64_t>& room, const std::vector<int>& same_as, std::int64_t m,
            std::vector<std::int64_t>& cur, long target, long& seen) {
    const std::size_t i = cur.size();
    if (i == room.size()) return m == 0 && seen++ == target ? 1 : 0;
    std::int64_t rest = 0;
    for (std::size_t j = i + 1; j < room.size(); ++j) rest += room[j];
    std::int64_t hi = std::min(room[i], m);
    if (same_as[i] >= 0) hi = std::min(hi, cur[same_as[i]]);
    for (std::int64_t x = hi; x >= 0 && x + rest >= m; --x) {
        cur.push_back(x);
        if (splits(room, same_as, m - x, cur, target, seen)) return 1;
        cur.pop_back();
    }
    return 0;
}

// The SM of each of the next m blocks of kernel k under a fixed policy: the simulator's
// policy_sm (sim/placement.hpp) on the engine's own usage vector, block by block.
std::vector<int> policy_placement(Ctx& c, int k, std::int64_t m, std::vector<SmUsage>& u) {
    const Platform& pf = c.p.w->platform;
    const BlockDemand& d = c.p.classes[c.p.demand_class[k]];
    std::vector<int> out;
    out.reserve(static_cast<std::size_t>(m));
    for (std::int64_t b = 0; b < m; ++b) {
        const int pick = policy_sm(c.p.policy, u, d, pf, c.s.rr_last);
        if (pick < 0) throw std::logic_error("exact engine: no SM for a block that fits");
        u[pick].add(d);
        c.s.rr_last = pick;
        out.push_back(pick);
    }
    return out;
}

// Step 5 — X1 (only the head of the EE queue), A2 (the high-priority queue first), R1-R3 with
// registers and resident blocks (SmUsage::room_for), G3. Dispatches what fits of the head
// kernel; returns true when it became fully dispatched (the step ends there: a boundary).
bool x1_a2_g3_dispatch(Ctx& c) {
    Queue* q = !c.s.queues[ee_high].empty()  ? &c.s.queues[ee_high]
               : !c.s.queues[ee_low].empty() ? &c.s.queues[ee_low]
                                             : nullptr;
    if (!q) return false;
    if (q->head < 0) q->head = take_head(c, *q);
    const int k = q->head;
    OpState& o = c.s.ops[k];
    const Platform& pf = c.p.w->platform;
    const BlockDemand& d = c.p.classes[c.p.demand_class[k]];
    const int n = static_cast<int>(c.s.sm.size());
    thread_local std::vector<SmUsage> u;
    thread_local std::vector<std::int64_t> room;
    u.assign(n, SmUsage{});
    room.assign(n, 0);
    std::int64_t total = 0;
    for (int i = 0; i < n; ++i) {
        u[i] = usage(c.p, c.s.sm[i]);
        room[i] = u[i].room_for(d, pf);
        total += room[i];
    }
    const std::int64_t m = std::min(c.p.blocks[k] - o.aux, total);
    if (m == 0) return false;
    thread_local std::vector<int> placement;  // SM position of each block, in index order
    placement.clear();
    if (c.p.policy == Policy::chooser) {
        thread_local std::vector<int> same_as;
        same_as.assign(n, -1);
        for (int i = 0; i < n; ++i)
            for (int j = i - 1; j >= 0 && same_as[i] < 0; --j)
                if (c.s.sm[j] == c.s.sm[i]) same_as[i] = j;
        thread_local std::vector<std::int64_t> split;
        split.clear();
        long count = 0;
        splits(room, same_as, m, split, -1, count);
        long seen = 0;
        split.clear();
        splits(room, same_as, m, split, choose(c, static_cast<int>(count)), seen);
        for (int i = 0; i < n; ++i) placement.insert(placement.end(), static_cast<std::size_t>(split[i]), i);
    } else {
        placement = policy_placement(c, k, m, u);
    }
    // Durations (intervals): the blocks placed on one SM now are interchangeable, so each SM
    // takes a non-decreasing sequence of grid values (one per multiset).
    thread_local std::vector<std::int64_t> shortest;  // per SM: the last value chosen for it
    shortest.assign(n, c.p.duration_lo[k]);
    std::int64_t latest = o.aux > 0 && c.p.ranges ? o.last_end : c.s.now;
    for (int i : placement) {
        const std::int64_t duration = choose_in(c, shortest[i], c.p.duration[k]);
        shortest[i] = duration;
        const std::int64_t end = c.s.now + duration;
        latest = std::max(latest, end);
        auto& blocks = c.s.sm[i];
        auto at = std::lower_bound(blocks.begin(), blocks.end(), end,
                                   [](const RunningBlock& b, std::int64_t t) { return b.end < t; });
        if (at == blocks.end() || at->end != end) at = blocks.insert(at, RunningBlock{end, 0, 0, 0, 0});
        at->threads += d.threads;
        at->shared_mem += d.shared_mem;
        at->registers += d.registers;
        at->blocks += c.p.count_binds ? 1 : 0;
        if (c.ob) {
            c.ob->block(k, i);
            c.ob->timed(k, duration);
        }
    }
    o.aux += m;
    o.last_end = c.p.ranges ? latest : 0;
    if (o.aux < c.p.blocks[k]) return false;
    o.phase = Phase::determined;  // G3: leaves its EE queue
    o.aux = latest;               // completes when its last block ends (G4)
    o.last_end = 0;
    q->head = -1;
    // Its completion (G4) is then observed only by a stream successor (G2, after_stream_idle), an
    // operation that waits on it (W1) or, with a NULL stream, by N1/N2 (stream heads). Without
    // any, completing it now changes no future, and the states that differ only in its
    // completion instant merge.
    if (!c.p.eager && c.p.next_in_stream[k] < 0 && !c.p.completion_observed[k]) o.phase = Phase::completed;
    c.out.responses.emplace_back(k, latest - o.issue);
    return true;
}

}  // namespace

StepOutcome step(const Problem& p, State& s, Decider& d, Observer* ob, const Budget* budget) {
    StepOutcome out;
    Ctx c{p, s, d, ob, out};
    if (s.now < 0)  // the first step: the issue instants of the streams' first operations
        for (int op : p.first_ops)
            if (has_window(p, op) && s.ops[op].phase == Phase::pending)
                s.ops[op].issue = choose_in(c, p.times.issue_lo[op], p.times.issue_hi[op]);
    for (std::uint64_t instants = 1;; ++instants) {
        if (budget && (instants & 4095) == 0 && budget->expired()) throw BudgetExhausted(StopReason::timeout);
        bool copies = false;
        if (!s.mid) {
            const auto t = next_event(p, s);
            if (!t) return out;
            s.now = *t;
            g4_c4_complete(c);
            g1_issue(c);
            g2_a1_c1_admit(c);
            copies = c2_c3_start_copies(c);
        }
        s.mid = false;
        if (x1_a2_g3_dispatch(c)) {
            s.mid = true;
            out.child = true;
            return out;
        }
        if (copies) {
            out.child = true;
            return out;
        }
    }
}

}  // namespace gpuwcrt::exact
