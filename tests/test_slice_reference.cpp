// An independent reference for the simulator's time slices (docs/theory/semantics.md §10, rules
// T1-T4), written from the rules and not from sim/: time advances in unit steps, and at each
// instant completions come first, then issues, then the engine's hand-over, then dispatch; during
// a step only the running context's blocks progress, a switch is θ steps in which none does. Its
// workloads keep the block rules of one context trivial (one stream per context, kernels only, a
// kernel's blocks alike in their room on the SMs), so that every difference it can show is one of
// the slices. It is checked on the hand-derived round-robin case, then compared with
// sim/contexts on seeded workloads; mutations of the simulator's slices must fail it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <random>

#include "sim/simulate.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

// What the stepped reference computes: every operation's completion, every block's first
// dispatch and completion, the slices and switches, in instants of the original time.
struct SteppedRun {
    std::vector<Time> finish;
    std::map<std::pair<int, std::int64_t>, std::pair<Time, Time>> blocks;  // (kernel, index) -> start, end
    std::vector<ContextSlice> slices, switches;
};

struct SteppedBlock {
    int kernel;
    std::int64_t index;
    long left;  // steps of work still to run
};

class SteppedSlices {
public:
    // `step` divides every time of `w`; `block_time` gives each block's time (the scenario's).
    SteppedSlices(const Workload& w, const Time& step, std::function<Time(int, std::int64_t)> block_time)
        : w_(w), step_(step), block_time_(std::move(block_time)), n_(static_cast<int>(w.contexts.size())) {
        in_flight_.resize(n_);
        dispatched_.assign(w.ops.size(), 0);
        done_.assign(w.ops.size(), 0);
        issued_.assign(w.ops.size(), 0);
        completed_.assign(w.ops.size(), 0);
        run_.finish.resize(w.ops.size());
    }

    SteppedRun run(long max_steps) {
        for (long t = 0; t <= max_steps; ++t) {
            complete(t);
            for (std::size_t i = 0; i < w_.ops.size(); ++i)
                if (steps(w_.ops[i].issue.at.lo) == t) issued_[i] = 1;
            hand_over(t);
            if (running_ >= 0) dispatch(t);
            if (std::all_of(completed_.begin(), completed_.end(), [](char c) { return c != 0; })) return run_;
            if (running_ >= 0) {
                for (SteppedBlock& b : in_flight_[running_]) --b.left;
                ++used_;
            }
        }
        FAIL("the stepped reference did not finish within " << max_steps << " steps");
        return run_;
    }

private:
    long steps(const Time& t) const {
        const Time q = t / step_;
        REQUIRE(denominator_ref(q) == 1);
        return numerator_ref(q).convert_to<long>();
    }
    Time at(long t) const { return step_ * t; }
    int context_of(std::size_t op) const { return w_.streams[w_.ops[op].stream].context; }
    bool pending(int c) const {
        for (std::size_t i = 0; i < w_.ops.size(); ++i)
            if (context_of(i) == c && issued_[i] && !completed_[i]) return true;
        return false;
    }
    bool another_pending(int c) const {
        for (int x = 0; x < n_; ++x)
            if (x != c && pending(x)) return true;
        return false;
    }

    // Blocks whose work ran out at the end of the last step complete now, kernels with them.
    void complete(long t) {
        for (std::vector<SteppedBlock>& blocks : in_flight_)
            for (auto b = blocks.begin(); b != blocks.end();) {
                if (b->left > 0) {
                    ++b;
                    continue;
                }
                run_.blocks[{b->kernel, b->index}].second = at(t);
                if (++done_[b->kernel] == w_.ops[b->kernel].blocks) {
                    completed_[b->kernel] = 1;
                    run_.finish[b->kernel] = at(t);
                }
                b = blocks.erase(b);
            }
    }

    void enter(long t) {
        running_ = std::exchange(switching_to_, -1);
        used_ = 0;
        held_since_ = t;
        run_.switches.push_back({running_, at(switch_start_), at(t)});
    }
    void leave(long t) {
        run_.slices.push_back({running_, at(held_since_), at(t)});
        last_ = std::exchange(running_, -1);
    }

    // T2-T4 at instant t: a switch ending hands the engine over; the running context leaves it
    // when no longer pending or when a whole slice has run while another is pending (with none,
    // a new slice begins); a free engine switches to the next pending context after the last.
    void hand_over(long t) {
        if (switching_to_ >= 0 && switch_end_ == t) enter(t);
        if (running_ >= 0) {
            if (!pending(running_)) leave(t);
            else if (used_ == steps(w_.contexts[running_].timeslice)) {
                if (another_pending(running_)) leave(t);
                else used_ = 0;
            }
        }
        if (running_ >= 0 || switching_to_ >= 0) return;
        for (int i = 1; i <= n_; ++i) {
            const int c = (last_ + i + n_) % n_;  // last_ = -1: from the first context
            if (!pending(c)) continue;
            switching_to_ = c;
            switch_start_ = t;
            switch_end_ = t + steps(w_.platform.context_switch);
            if (switch_end_ == t) enter(t);
            return;
        }
    }

    // The running context's stream head fills every free place its blocks have on the SMs.
    void dispatch(long t) {
        for (std::size_t k = 0; k < w_.ops.size(); ++k) {
            if (context_of(k) != running_ || !issued_[k] || completed_[k]) continue;
            const Operation& op = w_.ops[k];
            const std::int64_t per_sm =
                std::min(w_.platform.threads_per_sm / op.threads, w_.platform.blocks_per_sm_max);
            std::vector<SteppedBlock>& blocks = in_flight_[running_];
            while (static_cast<std::int64_t>(blocks.size()) < per_sm * w_.platform.sms && dispatched_[k] < op.blocks) {
                const std::int64_t index = dispatched_[k]++;
                blocks.push_back({static_cast<int>(k), index, steps(block_time_(static_cast<int>(k), index))});
                run_.blocks[{static_cast<int>(k), index}].first = at(t);
            }
            return;  // the stream's later kernels wait for this one
        }
    }

    const Workload& w_;
    Time step_;
    std::function<Time(int, std::int64_t)> block_time_;
    int n_;
    std::vector<std::vector<SteppedBlock>> in_flight_;  // per context: its blocks, running or stopped
    std::vector<std::int64_t> dispatched_, done_;
    std::vector<char> issued_, completed_;
    int running_ = -1, switching_to_ = -1, last_ = -1;
    long used_ = 0, held_since_ = 0, switch_start_ = 0, switch_end_ = 0;
    SteppedRun run_;
};

// 2–4 contexts of one stream each (a context may have no kernel), slices 1–5, a switch of 0–2,
// 1 or 2 SMs; 0–3 kernels per stream of 1–5 blocks (2 or 4 fit on an SM), issued at integer
// instants in 0..12 in stream order; each block's time drawn in 1..6.
struct SteppedCase {
    Workload w;
    std::map<std::pair<int, std::int64_t>, Time> block_time;
};

SteppedCase stepped_case(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto pick = [&](long lo, long hi) { return std::uniform_int_distribution<long>(lo, hi)(rng); };
    SteppedCase x;
    Workload& w = x.w;
    w.platform.sms = static_cast<int>(pick(1, 2));
    w.platform.context_switch = pick(0, 2);
    const int contexts = static_cast<int>(pick(2, 4));
    for (int c = 0; c < contexts; ++c) {
        w.contexts.push_back({"c" + std::to_string(c), Time(pick(1, 5)), {}});
        Stream st;
        st.name = "s" + std::to_string(c);
        st.context = c;
        w.streams.push_back(st);
        std::vector<long> issues(static_cast<std::size_t>(pick(c == 0 ? 1 : 0, 3)));
        for (long& i : issues) i = pick(0, 12);
        std::sort(issues.begin(), issues.end());
        for (std::size_t k = 0; k < issues.size(); ++k) {
            Operation op;
            op.name = "k" + std::to_string(c) + "_" + std::to_string(k);
            op.stream = c;
            op.position = static_cast<int>(k);
            op.blocks = pick(1, 5);
            op.threads = pick(0, 1) == 0 ? 512 : 1024;
            op.time = {Time(6), Time(6)};
            op.issue.at = {Time(issues[k]), Time(issues[k])};
            for (std::int64_t b = 0; b < op.blocks; ++b)
                x.block_time[{static_cast<int>(w.ops.size()), b}] = Time(pick(1, 6));
            w.ops.push_back(op);
        }
    }
    return x;
}

void check_same_run(const Workload& w, const Schedule& s, const SteppedRun& r) {
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        INFO(w.ops[i].name);
        CHECK(s.ops[i].finish == r.finish[i]);
    }
    for (const BlockTiming& b : s.blocks) {
        INFO(w.ops[b.kernel].name << " block " << b.index);
        const auto& [start, end] = r.blocks.at({b.kernel, b.index});
        CHECK(b.start == start);
        CHECK(b.end == end);
    }
    auto text = [&](const std::vector<ContextSlice>& xs) {
        std::string out;
        for (const ContextSlice& x : xs)
            out += w.contexts[x.context].name + "[" + human_string(x.start) + "," + human_string(x.end) + "] ";
        return out;
    };
    CHECK(text(s.slices) == text(r.slices));
    CHECK(text(s.switches) == text(r.switches));
}

}  // namespace

// cases/contexts/round-robin.md's table, in steps of 0.5 ms: the reference's own check.
TEST_CASE("stepped slice reference: the round-robin case's hand derivation", "[contexts][sim][reference]") {
    const Workload w = load_workload_file(test::source_path("cases/contexts/round-robin.toml"));
    const SteppedRun r = SteppedSlices(w, Time(1, 2), [&](int k, std::int64_t) { return w.ops[k].time.hi; }).run(1000);
    CHECK(r.finish[0] == Time(10));
    CHECK(r.finish[1] == Time(27, 2));
    CHECK(r.finish[2] == Time(15, 2));
    std::string slices, switches;
    for (const ContextSlice& x : r.slices)
        slices += w.contexts[x.context].name + "[" + human_string(x.start) + "," + human_string(x.end) + "] ";
    for (const ContextSlice& x : r.switches)
        switches += w.contexts[x.context].name + "[" + human_string(x.start) + "," + human_string(x.end) + "] ";
    CHECK(slices == "A[0.5,3.5] B[4,6] C[6.5,7.5] A[8,10] B[10.5,13.5] ");
    CHECK(switches == "A[0,0.5] B[3.5,4] C[6,6.5] A[7.5,8] B[10,10.5] ");
    check_same_run(w, simulate(w), r);
}

TEST_CASE("stepped slice reference: the simulator's slices equal it on seeded workloads",
          "[contexts][sim][reference]") {
    int preempted = 0, renewed = 0, free_switch = 0, idle_engine = 0;
    for (std::uint64_t seed = 1; seed <= test::seeded(400); ++seed) {
        INFO("seed " << seed);
        const SteppedCase x = stepped_case(seed);
        Scenario sc;
        sc.block_time = [&](int k, std::int64_t b) { return x.block_time.at({k, b}); };
        const Schedule s = simulate(x.w, sc);
        const SteppedRun r = SteppedSlices(x.w, Time(1), sc.block_time).run(2000);
        check_same_run(x.w, s, r);
        // What the seeds must exercise: a slice cut short with another pending, a slice renewed
        // (a run longer than its slice), free switches, and the engine idle between contexts.
        for (const ContextSlice& c : s.slices)
            for (std::size_t i = 0; i < x.w.ops.size(); ++i)
                if (x.w.streams[x.w.ops[i].stream].context == c.context && s.ops[i].issue <= c.end &&
                    c.end < s.ops[i].finish) {
                    ++preempted;  // left the engine with a kernel unfinished
                    break;
                }
        for (const ContextSlice& c : s.slices)
            if (c.end - c.start > x.w.contexts[c.context].timeslice) ++renewed;
        if (x.w.platform.context_switch == 0) ++free_switch;
        for (std::size_t i = 0; i + 1 < s.switches.size(); ++i)
            if (s.switches[i + 1].start > s.slices[i].end) ++idle_engine;
    }
    if (!test::sanitized) {
        CHECK(preempted >= 100);
        CHECK(renewed >= 20);
        CHECK(free_switch >= 50);
        CHECK(idle_engine >= 10);
    }
}

// Two contexts, each one block of 1000 on one slice of 1, switches of 1/2: a round of 3 gives
// each 1 of work, so 2000 slices pass before the first completion, which the simulator's guard
// against a loop (a bound on events without an issue or a completion) must let through. KA's
// 1000th slice is [0.5 + 999·3, +1], and KB's last unit follows a switch: 2998.5 and 3000.
TEST_CASE("stepped slice reference: a long block through many short slices is no loop", "[contexts][sim][reference]") {
    Workload w;
    w.platform.sms = 1;
    w.platform.context_switch = Time(1, 2);
    for (int c = 0; c < 2; ++c) {
        w.contexts.push_back({std::string(1, static_cast<char>('A' + c)), Time(1), {}});
        Stream st;
        st.name = "s" + std::to_string(c);
        st.context = c;
        w.streams.push_back(st);
        Operation op;
        op.name = "K" + w.contexts.back().name;
        op.stream = c;
        op.blocks = 1;
        op.threads = 1024;
        op.time = {Time(1000), Time(1000)};
        w.ops.push_back(op);
    }
    const Schedule s = simulate(w);
    CHECK(s.ops[0].finish == Time(5997, 2));
    CHECK(s.ops[1].finish == Time(3000));
    CHECK(s.slices.size() == 2000);
    check_same_run(w, s, SteppedSlices(w, Time(1, 2), [&](int k, std::int64_t) { return w.ops[k].time.hi; }).run(7000));
}
