#include "bounds/abstraction/dispatch.hpp"

#include <algorithm>

#include "bounds/abstraction/merge.hpp"
#include "bounds/abstraction/occupancy.hpp"

namespace gpuwcrt::abstraction {
namespace {
using PartialBucket = Bucket<Partial, PartialOps>;

// What one dispatch_kernel call shares.
struct Dispatch {
    const Problem& p;
    int k;
    std::int64_t blocks;
    Interval dispatched;
    Interval duration;
    bool fresh;  // no block out before: the first block's end starts the hull of ends
    int partial_cap;
    bool concrete;
    const Budget& budget;
    const Gate* gate;
    std::vector<Interrupt>* interrupts;
    PartialBucket next, finished;          // the states after one more block; the possible ends
    std::vector<std::int64_t> f_lo, f_hi;  // step(): per SM, the next block's earliest and latest fit

    Dispatch(const Problem& p, int k, Interval dispatched, int partial_cap, bool concrete, const Budget& budget,
             const Gate* gate, std::vector<Interrupt>* interrupts)
        : p(p),
          k(k),
          blocks(p.w.ops[k].blocks),
          dispatched(dispatched),
          duration(duration_of(p, k)),
          fresh(dispatched.hi == 0),
          partial_cap(partial_cap),
          concrete(concrete),
          budget(budget),
          gate(gate),
          interrupts(interrupts),
          next(partial_cap, concrete),
          finished(partial_cap, concrete) {}

    void tick() const {
        // One transition may place 10^5 blocks, or dispatch a high kernel at each of a low
        // kernel's hundreds of cuts (each a call of its own): the deadline every 64 steps,
        // counted across calls.
        thread_local std::int64_t count = 0;
        if (++count % 64 == 0) budget.check();
    }

    // Block s of this call (0-based) on SM m from `start` on, after the state r, into `next`.
    void place(Partial r, std::int64_t s, int m, const Interval& start) {
        const std::int64_t before = r.prev.lo;
        r.prev = start;
        const Interval end = plus(start, duration);
        occupy(p, r.sms[m], k, end);
        r.done = fresh && s == 0 ? end : max_of(r.done, end);
        // r is already free at `before`: only a later start, or a block ending by it, frees more.
        if (start.lo > before || end.hi <= start.lo) free_ended(r.sms, start.lo);
        if (concrete) r.block_sm.push_back(m);
        else std::sort(r.sms.begin(), r.sms.end());
        next.add(std::move(r));
    }

    // The next block after the state q (s blocks of this call out), on every SM it may take.
    void step(const Partial& q, std::int64_t s) {
        const int m_count = static_cast<int>(q.sms.size());
        f_lo.resize(m_count), f_hi.resize(m_count);
        std::int64_t s_lo = never, s_hi = never;
        for (int m = 0; m < m_count; ++m) {
            f_lo[m] = fit_instant(p, q.sms[m], k, false, q.prev.lo);
            f_hi[m] = fit_instant(p, q.sms[m], k, true, q.prev.hi);
            s_lo = std::min(s_lo, f_lo[m]);
            s_hi = std::min(s_hi, f_hi[m]);
        }
        if (gate) {
            // A2: a high kernel that joined by this block's instant is dispatched before it.
            if (s > 0 && gate->next_join_lo <= s_hi)
                interrupts->push_back({{dispatched.lo + s, std::min(dispatched.hi + s, blocks - 1)}, s_hi, q});
            if (s_lo >= gate->join_hi) return;     // some high kernel has certainly joined by then
            s_hi = std::min(s_hi, gate->join_hi);  // dispatched before every high join
        }
        if (s_hi == never) return;  // fits on no SM even when all is released: no run gets here
        for (int m = 0; m < m_count; ++m) {
            if (f_lo[m] > s_hi) continue;  // cannot have room on m by the latest possible start
            bool symmetric = false;        // an SM in the same state was tried: the same schedule up to renaming
            for (int o = 0; o < m && !symmetric; ++o) symmetric = q.sms[o] == q.sms[m];
            if (symmetric) continue;
            place(q, s, m, {f_lo[m], s_hi});
            if (p.mutation == AbstractionMutation::one_sm) break;
        }
    }
};

}  // namespace

std::vector<Partial> dispatch_kernel(const Problem& p, Partial start, int k, Interval dispatched, int partial_cap,
                                     bool concrete, const Budget& budget, const Gate* gate,
                                     std::vector<Interrupt>* interrupts) {
    Dispatch d(p, k, dispatched, partial_cap, concrete, budget, gate, interrupts);
    free_ended(start.sms, start.prev.lo);
    if (!concrete) std::sort(start.sms.begin(), start.sms.end());
    std::vector<Partial> current{std::move(start)};
    for (std::int64_t s = 0; dispatched.lo + s < d.blocks; ++s) {
        for (const Partial& q : current) {
            d.tick();
            d.step(q, s);
        }
        current = d.next.take();
        if (s + 1 >= d.blocks - dispatched.hi)
            for (const Partial& q : current) d.finished.add(q);
    }
    return d.finished.take();
}

}  // namespace gpuwcrt::abstraction
