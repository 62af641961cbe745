// The exact engine over block-time / duration intervals and issue windows (docs/theory/exact-engine.md,
// "Intervals and windows"): its answer is the maximum over the workload's tick grid, checked
// against a brute force here (every grid value of every block time, duration and issue instant,
// every launch order, through the simulator with a scenario override), on tiny workloads with
// a fixed placement (a fixed policy, or one SM), every witness replayed; answers are never
// "exact" and carry no upper bound; a grid too large is refused.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <numeric>

#include "model/generate/random_workload.hpp"
#include "sim/simulate.hpp"
#include "solver/exact/explorer.hpp"
#include "model/integer_time.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

RandomWorkloadSpec grid_spec(std::uint64_t seed) {
    RandomWorkloadSpec s;
    s.kernels = 2 + static_cast<int>(seed % 2);
    s.streams = 1 + static_cast<int>((seed / 2) % 3);
    s.threads = {256, 512, 1024};
    s.shared_kib = {0, 32};
    s.max_blocks = 2;
    s.max_block_time = 2;
    s.staggered_issue = seed % 2 == 0;
    s.sms = 1 + static_cast<int>((seed / 6) % 2);
    s.interval_percent = 60;
    s.window_percent = seed % 3 == 0 ? 60 : 0;
    s.copy_percent = seed % 4 == 1 ? 35 : 0;
    s.high_priority_streams = seed % 5 == 2 ? 1 : 0;
    s.null_stream = seed % 7 == 3;
    s.after_idle_percent = seed % 4 == 3 ? 40 : 0;
    return s;
}

struct Axis {
    int op;
    std::int64_t block;  // -1: the issue instant
    std::vector<Time> values;
};

// Every grid value of every block time, copy duration and issue window; every launch order
// consistent with stream order as ranks (ranks only break ties among simultaneous issues).
// Returns false when there are more than `limit` grid points.
bool brute_force(const Workload& w, Policy policy, std::vector<Time>& worst, long limit) {
    const IntegerTimes t = integer_times(w);
    std::vector<Axis> axes;
    long points = 1;
    for (int i = 0; i < static_cast<int>(w.ops.size()); ++i) {
        const Operation& op = w.ops[i];
        auto grid = [&](std::int64_t lo, std::int64_t hi) {
            std::vector<Time> v;
            for (std::int64_t x = lo; x <= hi; ++x) v.push_back(t.to_time(x));
            return v;
        };
        for (std::int64_t b = 0; b < (op.is_kernel() ? op.blocks : 1); ++b)
            axes.push_back({i, b, grid(t.lo[i], t.hi[i])});
        if (op.issue.kind == IssueSpec::Kind::at && t.issue_lo[i] < t.issue_hi[i])
            axes.push_back({i, -1, grid(t.issue_lo[i], t.issue_hi[i])});
    }
    for (const Axis& a : axes) {
        points *= static_cast<long>(a.values.size());
        if (points > limit) return false;
    }
    const int n = static_cast<int>(w.ops.size());
    std::vector<std::vector<int>> orders;
    std::vector<int> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    do {
        bool ok = true;
        for (int a = 0; a < n && ok; ++a)
            for (int b = a + 1; b < n && ok; ++b)
                if (w.ops[perm[a]].stream == w.ops[perm[b]].stream && perm[a] > perm[b]) ok = false;
        if (ok) orders.push_back(perm);
    } while (std::next_permutation(perm.begin(), perm.end()));
    worst.assign(n, Time(-1));
    std::vector<std::size_t> at(axes.size(), 0);
    for (;;) {
        std::vector<std::vector<Time>> times(n);
        std::vector<std::optional<Time>> issue(n);
        for (int i = 0; i < n; ++i) times[i].assign(w.ops[i].is_kernel() ? w.ops[i].blocks : 1, w.ops[i].time.hi);
        for (std::size_t a = 0; a < axes.size(); ++a) {
            if (axes[a].block < 0) issue[axes[a].op] = axes[a].values[at[a]];
            else times[axes[a].op][axes[a].block] = axes[a].values[at[a]];
        }
        for (const std::vector<int>& order : orders) {
            Scenario sc;
            sc.rank.assign(n, 0);
            for (int r = 0; r < n; ++r) sc.rank[order[r]] = r;
            sc.policy = policy == Policy::chooser ? Policy::most_room : policy;  // one SM: no choice
            sc.block_time = [&times](int op, std::int64_t block) { return times[op][block]; };
            sc.issue_at = issue;
            const Schedule s = simulate(w, sc);
            for (int i = 0; i < n; ++i) worst[i] = std::max(worst[i], s.response(i));
        }
        std::size_t a = 0;
        while (a < axes.size() && ++at[a] == axes[a].values.size()) at[a++] = 0;
        if (a == axes.size()) break;
    }
    return true;
}

}  // namespace

TEST_CASE("exact engine over intervals and windows equals the maximum over the tick grid") {
    int checked = 0, with_windows = 0, with_intervals = 0, eager = 0, copies = 0;
    for (std::uint64_t seed = 1; seed <= 400; ++seed) {
        const Workload w = random_workload(grid_spec(seed), 4200 + seed);
        const Policy policy =
            w.platform.sms == 1 ? Policy::chooser : (seed % 2 ? Policy::first_fit : Policy::most_room);
        std::vector<Time> worst;
        if (!brute_force(w, policy, worst, 300)) continue;
        INFO("seed " << seed);
        EngineOptions o;
        o.policy = policy;
        const ExactResult r = exact_wcrt(w, o, Budget{});
        REQUIRE(r.complete);
        const bool ranges = std::any_of(w.ops.begin(), w.ops.end(), [](const Operation& op) {
            return !op.time.is_point() || (op.issue.is_static() && !op.issue.at.is_point());
        });
        for (std::size_t op = 0; op < w.ops.size(); ++op) {
            INFO("operation " << w.ops[op].name);
            REQUIRE(r.wcrt[op].lower);
            CHECK(exact_string(*r.wcrt[op].lower) == exact_string(worst[op]));
            if (ranges) {
                CHECK(r.wcrt[op].status == WcrtStatus::unknown);
                CHECK(r.wcrt[op].unknown_reason == "grid");
                CHECK_FALSE(r.wcrt[op].upper);
            }
            REQUIRE(r.wcrt[op].witness);
            CHECK(simulate(w, witness_scenario(w, *r.wcrt[op].witness)).response(static_cast<int>(op)) ==
                  *r.wcrt[op].lower);
        }
        ++checked;
        with_intervals +=
            std::any_of(w.ops.begin(), w.ops.end(), [](const Operation& op) { return !op.time.is_point(); });
        with_windows += std::any_of(w.ops.begin(), w.ops.end(), [](const Operation& op) {
            return op.issue.is_static() && !op.issue.at.is_point();
        });
        eager += w.null_stream() >= 0;
        copies += std::any_of(w.ops.begin(), w.ops.end(), [](const Operation& op) { return !op.is_kernel(); });
    }
    CHECK(checked > 150);
    CHECK(with_intervals > 100);
    CHECK(with_windows > 20);
    CHECK(eager > 10);
    CHECK(copies > 20);
}

TEST_CASE("exact engine refuses a grid of intervals beyond its limit, naming the operation") {
    RandomWorkloadSpec s;
    s.kernels = 3;
    s.max_blocks = 8;
    s.interval_percent = 100;
    s.block_time_denominator = 7;  // a fine grid: ~8 values per block, 8 blocks per kernel
    const Workload w = random_workload(s, 5);
    CHECK_THROWS_WITH(exact_wcrt(w, {}, Budget{}), Catch::Contains("time grid") && Catch::Contains("--engine bounds"));
}
