#include "bounds/interference/interference.hpp"

#include <algorithm>
#include <memory>

#include "bounds/interference/blocked_work.hpp"
#include "model/integer_time.hpp"

namespace gpuwcrt {
namespace {

using interference::ChainOp;
using interference::Segment;

class Analysis {
public:
    Analysis(const Workload& w, const InterferenceOptions& o) : w_(w), o_(o), t_(integer_times(w)) {
        const Platform& p = w.platform;
        cap_ = {p.threads_per_sm, p.shared_mem_per_sm, p.registers_per_sm, p.blocks_per_sm_max};
        stream_ops_.resize(w.streams.size());
        for (std::size_t i = 0; i < w.ops.size(); ++i) {
            const Operation& op = w.ops[i];
            ChainOp x;
            x.kernel = op.is_kernel();
            x.stream = op.stream;
            x.high = w.streams[op.stream].priority == Priority::high;
            x.pred = stream_ops_[op.stream].empty() ? -1 : stream_ops_[op.stream].back();
            x.lo = t_.lo[i], x.hi = t_.hi[i], x.blocks = x.kernel ? op.blocks : 1;
            if (x.kernel) {
                x.need = {op.threads, op.shared_mem, op.registers * op.threads, 1};
                // Blocks that fit on the SMs together: each SM's room on an empty SM (R2/R3, registers, resident
                // blocks).
                x.at_once = std::max<std::int64_t>(1, SmUsage{}.room_for(op.demand(), p)) * p.sms;
            }
            x.done_hi = t_.horizon;  // every event of every scenario is by the horizon
            stream_ops_[op.stream].push_back(static_cast<int>(i));
            ops_.push_back(x);
        }
        wait_.assign(ops_.size(), t_.horizon);
        solo_.assign(ops_.size(), t_.horizon);
        alone_.assign(ops_.size(), t_.horizon);
        all_lower_ends();
        pinned_.assign(ops_.size(), false);
        for (std::size_t i = 0; i < o_.pinned.size(); ++i)
            if (o_.pinned[i]) pin(static_cast<int>(i), *o_.pinned[i]);
        index_ = std::make_unique<interference::CandidateIndex>(ops_, stream_ops_);
        unchecked_scale_ = interference::unchecked_scale(ops_, p);
        for (std::size_t i = 0; i < ops_.size(); ++i)
            if (ops_[i].kernel) alone_[i] = interference::alone_ticks(context(), static_cast<int>(i));
    }

    // Sweeps until nothing changes; false when the budget stopped them.
    bool run(const Budget& budget, int& sweeps) {
        for (bool changed = true; changed && sweeps < o_.max_sweeps; ++sweeps) {
            changed = false;
            for (const auto& stream : stream_ops_)
                for (std::size_t n = 0; n < stream.size(); ++n) {
                    if (budget.expired()) return false;
                    if (!pinned_[stream[n]]) changed |= tighten(stream, n);
                }
        }
        return true;
    }

    Time done(int i) const { return t_.to_time(ops_[i].done_hi); }

    std::optional<Time> response(int i) const {
        if (!ops_[i].response) return std::nullopt;
        return t_.to_time(*ops_[i].response);
    }

    UpperEnds ends(int i) const {
        const ChainOp& x = ops_[i];
        return {t_.to_time(x.issue_hi), t_.to_time(x.join_hi), t_.to_time(x.done_hi), t_.to_time(x.behind), response(i),
                t_.to_time(wait_[i]),   t_.to_time(solo_[i])};
    }

private:
    // Upper ends rounded up to ticks (a larger upper end is still proven), at most the horizon
    // as every upper end the sweeps hold.
    std::int64_t ticks_up(const Time& t) const { return interference::ceil_ticks(t * t_.scale, t_.horizon); }

    void pin(int i, const UpperEnds& e) {
        ChainOp& x = ops_[i];
        x.issue_hi = ticks_up(e.issue), x.join_hi = ticks_up(e.join), x.done_hi = ticks_up(e.done);
        x.behind = ticks_up(e.behind);
        if (e.response) x.response = ticks_up(*e.response);
        wait_[i] = ticks_up(e.wait), solo_[i] = ticks_up(e.solo);
        pinned_[i] = true;
    }

    // G1 and the issue kinds of model/workload.hpp: the stream predecessor's issue, or its
    // completion (not before an unrolled frame's release) plus the delay, or the operation's own
    // window; it joins its queue once issued, at the head of its stream (G2, C1: the predecessor
    // completed, G4/C4) and once every operation it waits on has completed (W1).
    void lower_ends(int i) {
        ChainOp& x = ops_[i];
        const IssueSpec& is = w_.ops[i].issue;
        if (x.pred < 0) {
            x.issue_lo =
                is.kind == IssueSpec::Kind::after_stream_idle ? t_.release_lo[i] + t_.delay[i] : t_.issue_lo[i];
            x.join_lo = x.issue_lo;
        } else {
            const ChainOp& p = ops_[x.pred];
            switch (is.kind) {
                case IssueSpec::Kind::at:
                    x.issue_lo = std::max(t_.issue_lo[i], p.issue_lo);
                    break;
                case IssueSpec::Kind::with_previous:
                    x.issue_lo = p.issue_lo;
                    break;
                case IssueSpec::Kind::after_stream_idle:
                    x.issue_lo = std::max(p.done_lo, t_.release_lo[i]) + t_.delay[i];
                    break;
            }
            x.join_lo = std::max(x.issue_lo, p.done_lo);
        }
        for (const int d : w_.ops[i].wait) x.join_lo = std::max(x.join_lo, ops_[d].done_lo);
        x.done_lo = x.join_lo + waves(x) * x.lo;
    }

    // The lower ends in an order where each operation's predecessor and the operations it
    // waits on come first: stream order and waits form no cycle (validate_workload), so every
    // pass settles at least one more operation.
    void all_lower_ends() {
        for (std::size_t pass = 0; pass <= ops_.size(); ++pass) {
            bool changed = false;
            for (std::size_t i = 0; i < ops_.size(); ++i) {
                const std::int64_t before = ops_[i].done_lo;
                lower_ends(static_cast<int>(i));
                changed |= ops_[i].done_lo != before;
            }
            if (!changed) return;
        }
    }

    // At most M blocks of a kernel run at once, so the block that starts (i·M + 1)-th starts
    // when i of the earlier ones have ended: i·lo after the first at the least. Its completion is
    // at least ⌈g / M⌉ block times after its join.
    std::int64_t waves(const ChainOp& x) const {
        if (!x.kernel) return 1;
        const std::int64_t m =
            o_.mutation == InterferenceMutation::half_waves ? std::max<std::int64_t>(1, x.at_once / 2) : x.at_once;
        return (x.blocks + m - 1) / m;
    }

    // The upper ends of `i` from its predecessor's and those of the operations it waits on, and
    // `behind`: join − issue, at most.
    void upper_ends(int i) {
        ChainOp& x = ops_[i];
        const IssueSpec& is = w_.ops[i].issue;
        std::int64_t behind = 0;  // the predecessor's (or a waited operation's) completion − i's issue, at most
        if (x.pred < 0) {
            x.issue_hi = is.kind == IssueSpec::Kind::after_stream_idle ? t_.release_hi[i] + t_.delay[i]
                         : is.kind == IssueSpec::Kind::at              ? t_.issue_hi[i]
                                                                       : t_.issue_lo[i];
            x.join_hi = x.issue_hi;
        } else {
            const ChainOp& p = ops_[x.pred];
            switch (is.kind) {
                case IssueSpec::Kind::at:  // issued at max(chosen instant, predecessor's issue)
                    x.issue_hi = std::max(t_.issue_hi[i], p.issue_hi);
                    behind = std::min(p.done_hi - x.issue_lo, p.response.value_or(t_.horizon));
                    break;
                case IssueSpec::Kind::with_previous:
                    x.issue_hi = p.issue_hi;
                    behind = p.response.value_or(p.done_hi - x.issue_lo);
                    break;
                case IssueSpec::Kind::after_stream_idle:  // issued after the predecessor's completion
                    x.issue_hi = std::max(p.done_hi, t_.release_hi[i]) + t_.delay[i];
                    break;
            }
            x.join_hi = std::max(x.issue_hi, p.done_hi);
        }
        for_each_waited(i, [&](int d) {
            x.join_hi = std::max(x.join_hi, ops_[d].done_hi);
            behind = std::max(behind, ops_[d].done_hi - x.issue_lo);
        });
        x.behind = std::max<std::int64_t>(0, behind);
    }

    // Idle time of the stream between its predecessor's completion and i's join, at most.
    std::int64_t gap(int i) const {
        const IssueSpec& is = w_.ops[i].issue;
        const ChainOp& p = ops_[ops_[i].pred];
        std::int64_t g = 0;
        if (is.kind == IssueSpec::Kind::after_stream_idle)
            g = std::max<std::int64_t>(0, t_.release_hi[i] - p.done_lo) + t_.delay[i];
        else if (is.kind == IssueSpec::Kind::at)
            g = std::max<std::int64_t>(0, t_.issue_hi[i] - p.done_lo);  // the predecessor's issue is earlier
        for_each_waited(i, [&](int d) { g = std::max(g, ops_[d].done_hi - p.done_lo); });
        return g;
    }

    // Every operation `i` may wait on, for the upper ends: its waits, and across rates every frame
    // that may be the most recent one issued before it. The lower ends take only the waits: a wait
    // across rates may be on a frame long completed.
    template <class F>
    void for_each_waited(int i, F f) const {
        if (o_.mutation == InterferenceMutation::no_wait) return;
        for (const int d : w_.ops[i].wait) f(d);
        for (const std::vector<int>& frames : w_.ops[i].wait_latest)
            for (const int d : frames) f(d);
    }

    bool tighten(const std::vector<int>& stream, std::size_t n);
    void segments(const std::vector<int>& stream, std::size_t n, std::int64_t& done, std::int64_t& response) const;
    interference::Context context() const {
        return {.ops = ops_,
                .cap = cap_,
                .platform = w_.platform,
                .index = *index_,
                .limit = t_.horizon,
                .mutation = o_.mutation,
                .unchecked_scale = unchecked_scale_,
                .exact_arithmetic = o_.exact_arithmetic,
                .scan_candidates = o_.scan_candidates};
    }
    std::int64_t solo(int i) const {
        const ChainOp& x = ops_[i];
        const Segment seg{{i}, std::max(x.join_hi, x.done_hi - x.lo)};  // D + lo <= done
        return interference::solo_ticks(context(), seg, alone_[i]);
    }
    std::int64_t kernel_wait(int i) const;
    std::int64_t copy_wait(int i) const;
    std::int64_t blocked(const Segment& seg) const {
        return interference::blocked_ticks(context(), seg, {wait_, solo_, alone_});
    }

    const Workload& w_;
    InterferenceOptions o_;
    IntegerTimes t_;
    interference::Needs cap_{};
    std::vector<ChainOp> ops_;
    std::vector<std::vector<int>> stream_ops_;
    std::vector<std::int64_t> wait_;   // per operation: its last (or only) start − its join, at most
    std::vector<std::int64_t> solo_;   // per kernel: the part of that wait at which it heads, at most
    std::vector<std::int64_t> alone_;  // per kernel: the part at which it heads with only its own blocks running
    std::vector<bool> pinned_;         // per operation: its upper ends came from outside
    std::unique_ptr<interference::CandidateIndex> index_;
    interference::Wide unchecked_scale_ = 0;  // over ops_, once their lower ends are final
};

// The n-th operation of `stream`: alone (its join, its wait, its time), and as the end of every
// segment of the stream ending with it (the first operation's join, then every operation's
// time, idle gap and copy wait, and the kernels' waits bounded together, each interferer once).
bool Analysis::tighten(const std::vector<int>& stream, std::size_t n) {
    const int i = stream[n];
    ChainOp& x = ops_[i];
    upper_ends(i);
    if (x.kernel) solo_[i] = std::min(solo_[i], solo(i));
    wait_[i] = std::min(wait_[i], x.kernel ? kernel_wait(i) : copy_wait(i));
    std::int64_t done = x.join_hi + wait_[i] + x.hi;
    std::int64_t response = std::min(done - x.issue_lo, x.behind + wait_[i] + x.hi);
    segments(stream, n, done, response);
    done = std::min(done, t_.horizon);
    response = std::min(response, done - x.issue_lo);
    const bool changed = done < x.done_hi || !x.response || response < *x.response;
    if (done < x.done_hi) {
        x.done_hi = done;
        index_->lowered(i);
    }
    x.response = std::min(response, x.response.value_or(response));
    return changed;
}

// The segments of `stream` ending at its n-th operation, each from its first operation a: that
// operation's join, then every operation's time, idle gap and copy wait (`fixed`), and the
// kernels' waits bounded together (blocked). They lower `done` and `response`.
//
// A segment that starts earlier has the same last kernel, more kernels and a superset of
// candidates, and every term of the blocked work grows with them: its blocked work is at least
// that of any segment it extends. So a segment whose first join, fixed times and the blocked
// work of the last shorter segment computed already reach both bounds cannot lower them, and is
// not computed. The shortest is computed first, then the whole stream (which wins where the
// higher-priority work is large), then the others, shortest first.
void Analysis::segments(const std::vector<int>& stream, std::size_t n, std::int64_t& done,
                        std::int64_t& response) const {
    const int i = stream[n];
    std::vector<std::int64_t> fixed(n + 1);
    fixed[n] = ops_[i].hi + (ops_[i].kernel ? 0 : wait_[i]);
    int last = ops_[i].kernel ? i : -1;
    std::vector<std::size_t> starts;  // the first operations of the segments, shortest first
    for (std::size_t a = n; a-- > 0;) {
        const int f = stream[a];
        fixed[a] = fixed[a + 1] + ops_[f].hi + (ops_[f].kernel ? 0 : wait_[f]) + gap(stream[a + 1]);
        if (last < 0 && ops_[f].kernel) last = f;
        if (last >= 0 && (a == 0 || n - a <= static_cast<std::size_t>(o_.max_segment))) starts.push_back(a);
    }
    if (starts.empty()) return;
    if (starts.back() == 0 && starts.size() > 2) std::rotate(starts.begin() + 1, starts.end() - 1, starts.end());
    const std::int64_t dispatched_by = last == i ? ops_[i].join_hi + wait_[i] : ops_[last].done_hi - ops_[last].lo;
    std::int64_t floor = 0;  // the blocked work of the last shorter segment computed
    for (const std::size_t a : starts) {
        const ChainOp& f = ops_[stream[a]];
        if (!o_.every_segment && f.join_hi + fixed[a] + floor >= done && f.behind + fixed[a] + floor >= response)
            continue;
        Segment seg{{}, dispatched_by};
        for (std::size_t k = a; k <= n; ++k)
            if (ops_[stream[k]].kernel) seg.kernels.push_back(stream[k]);
        const std::int64_t blocked_work = blocked(seg);
        if (a != 0) floor = blocked_work;
        done = std::min(done, f.join_hi + fixed[a] + blocked_work);
        response = std::min(response, f.behind + fixed[a] + blocked_work);
    }
}

// X1, A2 and R1–R3 for one kernel: a bound on (last dispatch − join). Every bound on the last
// dispatch instant gives a set of higher-priority kernels that can join before it, and with it
// a new bound; the sequence only tightens.
std::int64_t Analysis::kernel_wait(int i) const {
    const ChainOp& x = ops_[i];
    Segment seg{{i}, std::max(x.join_hi, x.done_hi - x.lo)};  // D + lo <= done
    std::int64_t wait = blocked(seg);
    for (int round = 0; round < 16 && x.join_hi + wait < seg.dispatched_by; ++round) {
        seg.dispatched_by = x.join_hi + wait;
        wait = std::min(wait, blocked(seg));
    }
    return wait;
}

// C1–C3: while a copy waits in the CE queue every copy engine is busy, with copies that were
// active (queued ahead or running) when it joined: at most one per other stream.
std::int64_t Analysis::copy_wait(int i) const {
    if (o_.mutation == InterferenceMutation::no_carry_in) return 0;
    const ChainOp& x = ops_[i];
    std::vector<std::int64_t> longest(w_.streams.size(), 0);
    for (const ChainOp& k : ops_)
        if (!k.kernel && k.stream != x.stream && k.join_lo <= x.join_hi && k.done_hi > x.join_lo)
            longest[k.stream] = std::max(longest[k.stream], k.hi);
    Time busy = 0;
    for (const std::int64_t l : longest) busy += l;
    return interference::ceil_ticks(busy / w_.platform.copy_engines, t_.horizon);
}

}  // namespace

InterferenceBounds interference_bounds(const Workload& w, const Budget& budget, const InterferenceOptions& o) {
    InterferenceBounds out;
    out.response.resize(w.ops.size());
    out.done.resize(w.ops.size());
    if (w.null_stream() >= 0) return out;
    try {
        Analysis a(w, o);
        out.stopped = !a.run(budget, out.sweeps);
        for (std::size_t i = 0; i < w.ops.size(); ++i) {
            out.response[i] = a.response(static_cast<int>(i));
            out.done[i] = a.done(static_cast<int>(i));
            out.ends.push_back(a.ends(static_cast<int>(i)));
        }
    } catch (const InputError&) {
        // times that do not fit integer ticks: no bound from this argument
    }
    return out;
}

}  // namespace gpuwcrt
