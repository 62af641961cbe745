// The simulator keeps indexes (pending issues, unjoined stream heads, N1's stream heads) so
// that an event costs O(log n) instead of a scan of every operation and stream. This test
// holds it to the straightforward scanning implementation it replaced (kept here, compact, as
// the reference): identical schedules — every issue, start, finish, launch position, copy
// engine and block — on random workloads with NULL and high-priority streams, copies, all
// three issue kinds (after_stream_idle also inside a frame), waits, several SMs and copy
// engines, every policy and random launch orders.
#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <map>
#include <random>

#include "model/generate/seeded_pick.hpp"
#include "sim/simulate.hpp"

using namespace gpuwcrt;

namespace {

struct Reference {
    const Workload& w;
    const Scenario& sc;
    Time now = 0;
    std::vector<std::deque<int>> stream_queue;
    std::array<std::deque<int>, 2> ee_queue;
    std::deque<int> ce_queue;
    std::vector<char> joined, issued, completed;
    std::vector<int> engine_op;
    std::vector<SmUsage> sm;
    int rr_last = -1;
    std::vector<std::optional<Time>> issue_at;
    std::vector<std::int64_t> next_block, blocks_done;
    std::multimap<Time, std::pair<int, int>> running_blocks;  // end -> (kernel, sm)
    std::multimap<Time, int> running_copies;
    long seq = 0;
    Schedule out;

    Reference(const Workload& wl, const Scenario& s)
        : w(wl),
          sc(s),
          stream_queue(wl.streams.size()),
          joined(wl.ops.size()),
          issued(wl.ops.size()),
          completed(wl.ops.size()),
          engine_op(wl.platform.copy_engines, -1),
          sm(wl.platform.sms),
          issue_at(wl.ops.size()),
          next_block(wl.ops.size()),
          blocks_done(wl.ops.size()) {
        out.ops.resize(wl.ops.size());
    }
    long rank(int op) const { return sc.rank.empty() ? op : sc.rank[op]; }
    int successor(int op) const {
        for (std::size_t i = op + 1; i < w.ops.size(); ++i)
            if (w.ops[i].stream == w.ops[op].stream) return static_cast<int>(i);
        return -1;
    }
    void completed_op(int op) {
        completed[op] = 1;
        out.ops[op].finish = now;
        auto& q = stream_queue[w.ops[op].stream];
        q.erase(std::find(q.begin(), q.end(), op));
        int next = successor(op);
        if (next >= 0 && w.ops[next].issue.kind == IssueSpec::Kind::after_stream_idle)
            issue_at[next] = std::max(now, release_of(next)) + w.ops[next].issue.delay;
    }
    // In a frame, after_stream_idle starts waiting at the frame's release (§9).
    Time release_of(int op) const { return w.ops[op].issue.release ? w.ops[op].issue.release->lo : Time(0); }
    // W1: every operation it waits on has completed.
    bool waits_done(int op) const {
        for (int t : w.ops[op].wait)
            if (!completed[t]) return false;
        return true;
    }
    bool issue() {
        bool any = false;
        for (;;) {
            int pick = -1;
            for (std::size_t i = 0; i < w.ops.size(); ++i)
                if (!issued[i] && issue_at[i] && *issue_at[i] == now && (pick < 0 || rank(i) < rank(pick)))
                    pick = static_cast<int>(i);
            if (pick < 0) return any;
            issued[pick] = 1;
            out.ops[pick].issue = now;
            out.ops[pick].launch_seq = seq++;
            out.launch_order.push_back(pick);
            stream_queue[w.ops[pick].stream].push_back(pick);
            if (int next = successor(pick); next >= 0) {
                const IssueSpec& is = w.ops[next].issue;
                if (is.kind == IssueSpec::Kind::with_previous) issue_at[next] = now;
                if (is.kind == IssueSpec::Kind::at) issue_at[next] = std::max(is.at.lo, now);
            }
            any = true;
        }
    }
    bool may_join(int k) const {
        const int null_stream = w.null_stream();
        if (null_stream < 0) return true;
        const long s = out.ops[k].launch_seq;
        auto after = [&](const std::deque<int>& q) { return q.empty() || out.ops[q.front()].launch_seq > s; };
        if (w.ops[k].stream == null_stream) {
            for (std::size_t st = 0; st < stream_queue.size(); ++st)
                if (static_cast<int>(st) != null_stream && !after(stream_queue[st])) return false;
            return true;
        }
        return after(stream_queue[null_stream]);
    }
    bool admit() {
        std::vector<int> joining;
        for (const auto& q : stream_queue)
            if (!q.empty() && !joined[q.front()] && waits_done(q.front()) &&
                (!w.ops[q.front()].is_kernel() || may_join(q.front())))
                joining.push_back(q.front());
        std::sort(joining.begin(), joining.end(),
                  [&](int a, int b) { return out.ops[a].launch_seq < out.ops[b].launch_seq; });
        for (int op : joining) {
            joined[op] = 1;
            if (!w.ops[op].is_kernel()) ce_queue.push_back(op);
            else ee_queue[w.streams[w.ops[op].stream].priority == Priority::high ? 0 : 1].push_back(op);
        }
        return !joining.empty();
    }
    bool copies() {
        bool any = false;
        for (std::size_t e = 0; e < engine_op.size() && !ce_queue.empty(); ++e) {
            if (engine_op[e] >= 0) continue;
            int op = ce_queue.front();
            ce_queue.pop_front();
            engine_op[e] = op;
            out.ops[op].start = now;
            out.ops[op].engine = static_cast<int>(e);
            running_copies.emplace(now + w.ops[op].time.hi, op);
            any = true;
        }
        return any;
    }
    int place(int k, const std::vector<int>& fit) {
        const BlockDemand d = w.ops[k].demand();
        switch (sc.policy) {
            case Policy::most_room: {
                int best = fit.front();
                for (int c : fit)
                    if (sm[c].room_for(d, w.platform) > sm[best].room_for(d, w.platform)) best = c;
                return best;
            }
            case Policy::round_robin:
                for (int step = 1; step <= static_cast<int>(sm.size()); ++step) {
                    int c = ((rr_last + step) % static_cast<int>(sm.size()) + static_cast<int>(sm.size())) %
                            static_cast<int>(sm.size());
                    if (std::find(fit.begin(), fit.end(), c) != fit.end()) return c;
                }
                return fit.front();
            default:
                return fit.front();
        }
    }
    bool dispatch() {
        bool any = false;
        for (;;) {
            auto q = std::find_if(ee_queue.begin(), ee_queue.end(), [](const auto& x) { return !x.empty(); });
            if (q == ee_queue.end()) return any;
            const int k = q->front();
            const Operation& o = w.ops[k];
            while (next_block[k] < o.blocks) {
                std::vector<int> fit;
                for (std::size_t i = 0; i < sm.size(); ++i)
                    if (sm[i].fits(o.demand(), w.platform)) fit.push_back(static_cast<int>(i));
                if (fit.empty()) return any;
                const std::int64_t j = next_block[k]++;
                const int c = place(k, fit);
                rr_last = c;
                sm[c].add(o.demand());
                running_blocks.emplace(now + o.time.hi, std::pair{k, c});
                if (j == 0) out.ops[k].start = now;
                out.blocks.push_back({k, j, c, now, now + o.time.hi});
                any = true;
            }
            q->pop_front();
        }
    }
    Schedule run() {
        for (std::size_t st = 0; st < w.streams.size(); ++st)
            for (std::size_t i = 0; i < w.ops.size(); ++i)
                if (w.ops[i].stream == static_cast<int>(st)) {
                    const IssueSpec& is = w.ops[i].issue;
                    issue_at[i] = is.kind == IssueSpec::Kind::after_stream_idle ? release_of(i) + is.delay : is.at.lo;
                    break;
                }
        for (;;) {
            std::optional<Time> t;
            auto consider = [&](const Time& x) {
                if (!t || x < *t) t = x;
            };
            for (std::size_t i = 0; i < w.ops.size(); ++i)
                if (issue_at[i] && !issued[i]) consider(*issue_at[i]);
            if (!running_blocks.empty()) consider(running_blocks.begin()->first);
            if (!running_copies.empty()) consider(running_copies.begin()->first);
            if (!t) return out;
            now = *t;
            while (!running_blocks.empty() && running_blocks.begin()->first == now) {
                auto [k, c] = running_blocks.begin()->second;
                running_blocks.erase(running_blocks.begin());
                sm[c].remove(w.ops[k].demand());
                if (++blocks_done[k] == w.ops[k].blocks) completed_op(k);
            }
            while (!running_copies.empty() && running_copies.begin()->first == now) {
                int op = running_copies.begin()->second;
                running_copies.erase(running_copies.begin());
                engine_op[out.ops[op].engine] = -1;
                completed_op(op);
            }
            for (bool changed = true; changed;) {
                changed = issue();
                changed = admit() || changed;
                changed = copies() || changed;
                changed = dispatch() || changed;
            }
        }
    }
};

Workload random_case(std::mt19937_64& rng) {
    Workload w;
    w.platform.sms = static_cast<int>(seeded_pick(rng, 1, 3));
    w.platform.copy_engines = static_cast<int>(seeded_pick(rng, 1, 2));
    const int streams = static_cast<int>(seeded_pick(rng, 1, 5));
    for (int s = 0; s < streams; ++s) {
        Stream st;
        st.name = "s" + std::to_string(s);
        st.priority = seeded_pick(rng, 0, 3) == 0 ? Priority::high : Priority::low;
        w.streams.push_back(st);
    }
    if (seeded_pick(rng, 0, 1) == 1) w.streams[seeded_pick(rng, 0, streams - 1)].is_null = true;
    const int n = static_cast<int>(seeded_pick(rng, 1, 12));
    std::vector<int> count(streams, 0);
    std::vector<Time> last(streams, 0);
    for (int i = 0; i < n; ++i) {
        Operation op;
        op.name = "op" + std::to_string(i);
        op.stream = static_cast<int>(seeded_pick(rng, 0, streams - 1));
        op.position = count[op.stream]++;
        op.kind = seeded_pick(rng, 0, 4) == 0 ? OpKind::copy : OpKind::kernel;
        const Time c(seeded_pick(rng, 1, 8), seeded_pick(rng, 1, 3));
        op.time = {c, c};
        if (op.is_kernel()) {
            op.blocks = seeded_pick(rng, 1, 6);
            op.threads = 128 * seeded_pick(rng, 1, 8);
            op.shared_mem = 8192 * seeded_pick(rng, 0, 3);
        }
        const std::int64_t kind = op.position == 0 ? seeded_pick(rng, 0, 1) * 2 : seeded_pick(rng, 0, 2);
        if (kind == 0) {
            Time at = std::max(last[op.stream], Time(seeded_pick(rng, 0, 6), 2));
            op.issue.at = {at, at};
            last[op.stream] = at;
        } else if (kind == 1) {
            op.issue.kind = IssueSpec::Kind::with_previous;
        } else {
            op.issue.kind = IssueSpec::Kind::after_stream_idle;
            op.issue.delay = Time(seeded_pick(rng, 0, 3), 2);
            if (seeded_pick(rng, 0, 2) == 0) {  // as in a frame of a periodic stream (§9)
                const Time r(seeded_pick(rng, 0, 12), 2);
                op.issue.release = TimeRange{r, r};
            }
        }
        // W1 without the NULL stream: a wait on an earlier operation never closes a cycle.
        if (i > 0 && w.null_stream() < 0 && seeded_pick(rng, 0, 2) == 0)
            op.wait.push_back(static_cast<int>(seeded_pick(rng, 0, i - 1)));
        w.ops.push_back(op);
    }
    return w;
}

}  // namespace

TEST_CASE("the indexed simulator equals the scanning reference on random workloads", "[sim]") {
    const Policy policies[] = {Policy::most_room, Policy::round_robin, Policy::first_fit};
    for (std::uint64_t seed = 1; seed <= 3000; ++seed) {
        std::mt19937_64 rng(seed);
        const Workload w = random_case(rng);
        Scenario sc;
        sc.policy = policies[seed % 3];
        if (seeded_pick(rng, 0, 1) == 1) {  // a random tie-break order
            for (std::size_t i = 0; i < w.ops.size(); ++i) sc.rank.push_back(static_cast<long>(i));
            std::shuffle(sc.rank.begin(), sc.rank.end(), rng);
        }
        INFO("seed " << seed);
        const Schedule got = simulate(w, sc);
        const Schedule want = Reference(w, sc).run();
        REQUIRE(got.launch_order == want.launch_order);
        for (std::size_t i = 0; i < w.ops.size(); ++i) {
            INFO("operation " << w.ops[i].name);
            CHECK(got.ops[i].issue == want.ops[i].issue);
            CHECK(got.ops[i].start == want.ops[i].start);
            CHECK(got.ops[i].finish == want.ops[i].finish);
            CHECK(got.ops[i].launch_seq == want.ops[i].launch_seq);
            CHECK(got.ops[i].engine == want.ops[i].engine);
        }
        REQUIRE(got.blocks.size() == want.blocks.size());
        for (std::size_t b = 0; b < got.blocks.size(); ++b) {
            CHECK(got.blocks[b].kernel == want.blocks[b].kernel);
            CHECK(got.blocks[b].index == want.blocks[b].index);
            CHECK(got.blocks[b].sm == want.blocks[b].sm);
            CHECK(got.blocks[b].start == want.blocks[b].start);
            CHECK(got.blocks[b].end == want.blocks[b].end);
        }
    }
}
