// RTA maximised over launch orders: the search against enumeration of every launch order (the
// reference, through the reference RTA), on seeded random workloads.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <limits>
#include <random>

#include "bounds/rta/rta.hpp"
#include "bounds/rta/rta_workload.hpp"
#include "model/generate/random_workload.hpp"
#include "model/io/write_toml.hpp"
#include "solver/block/enumerate/enumerate.hpp"
#include "solver/rta/cached_order.hpp"
#include "solver/rta/leveled_order.hpp"
#include "solver/rta/local_search.hpp"
#include "solver/rta/max_over_orders.hpp"
#include "solver/rta/problem.hpp"
#include "solver/rta/search.hpp"
#include "solver/rta/state.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

// Streams with several kernels and staggered issues in part of the workloads, so that the
// order constraints matter; one-big-SMs of 2 to 16 slots.
RandomWorkloadSpec small_spec(std::uint64_t seed, int max_kernels, int sms, bool tiny_slots = false) {
    RandomWorkloadSpec s;
    s.kernels = 1 + static_cast<int>(seed % max_kernels);
    s.streams = seed % 3 == 0 ? std::max(1, s.kernels / 2) : s.kernels;
    s.staggered_issue = seed % 4 == 1;
    s.sms = sms;
    s.threads = seed % 2 == 0 ? std::vector<std::int64_t>{1024}
                : tiny_slots  ? std::vector<std::int64_t>{512, 1024}
                              : std::vector<std::int64_t>{256, 512, 1024};
    s.max_blocks = 4;
    s.max_block_time = 4;
    s.block_time_denominator = seed % 7 == 0 ? 2 : 1;
    return s;
}

std::string text(const std::vector<std::optional<Time>>& v) {
    std::string s;
    for (const auto& t : v) s += (t ? exact_string(*t) : std::string("-")) + " ";
    return s;
}

std::string text(const RtaMaxOverOrders& m) {
    std::vector<std::optional<Time>> exact;
    for (const auto& a : m.answers) exact.push_back(a.exact());
    return text(exact);
}

// f of every kernel for one order (problem indices), by the reference rta_algorithm2.
std::vector<std::int64_t> reference_finish(const RtaOrderProblem& p, const std::vector<int>& order) {
    std::vector<RtaKernel> in;
    for (int j : order) in.push_back({Time(p.release[j]), Time(p.c[j]), p.slots[j]});
    const std::vector<Time> f = rta_algorithm2(in, p.g_max);
    std::vector<std::int64_t> out(p.kernels());
    for (std::size_t i = 0; i < order.size(); ++i) out[order[i]] = static_cast<std::int64_t>(numerator(f[i]));
    return out;
}

// The reference: the RTA of every launch order the simulator can realise, maximised per kernel.
RtaMaxOverOrders max_by_enumeration(const Workload& w) {
    RtaMaxOverOrders out;
    out.answers.resize(w.ops.size());
    for_each_launch_order(w, [&](const std::vector<long>& rank) {
        const RtaOutcome r = rta(w, rta_launch_order(w, rank));
        for (std::size_t i = 0; i < w.ops.size(); ++i) {
            auto v = r.response_of(static_cast<int>(i));
            BoundedAnswer<Time, LaunchOrder>& a = out.answers[i];
            if (v && (!a.exact() || *v > *a.exact())) {
                a.set_exact(*v, Provenance::enumerate);
                a.witness = r.order;
            }
        }
        ++out.work;
        return true;
    });
    out.complete = true;
    return out;
}

// The branch and bound alone (no local search's incumbent), responses per operation as in
// RtaMaxOverOrders: a pruning that loses the maximum's orders shows here.
std::vector<std::optional<Time>> branch_and_bound_alone(const Workload& w) {
    const rta_orders::WorkloadOrders wo = rta_orders::workload_orders(w);
    const rta_orders::SearchResult r =
        rta_orders::search_max_finish(wo.problem, Budget{}, std::nullopt, {.local_search = false});
    REQUIRE(r.complete);
    std::vector<std::optional<Time>> out(w.ops.size());
    const std::vector<Time> releases = rta_releases(w);
    for (int k = 0; k < wo.problem.kernels(); ++k) out[wo.op[k]] = Time(*r.finish[k]) / wo.scale - releases[wo.op[k]];
    return out;
}

// Enumeration of every order, and both the search and its branch and bound alone equal to it.
RtaMaxOverOrders require_search_is_enumeration(const Workload& w) {
    const RtaMaxOverOrders e = max_by_enumeration(w);
    const RtaMaxOverOrders s = rta_max_over_orders(w, Budget{});
    REQUIRE(s.complete);
    REQUIRE(text(s) == text(e));
    REQUIRE(text(branch_and_bound_alone(w)) == text(e));
    return e;
}

}  // namespace

TEST_CASE("the search gives the enumerated RTA max over orders of every kernel", "[rta][orders]") {
    int multi_stream = 0, staggered = 0, eight = 0;
    for (std::uint64_t seed = 1; seed <= test::seeded(320); ++seed) {
        // Up to 6 kernels, and 7 or 8 in one workload of 16 each (8! orders take long to enumerate).
        RandomWorkloadSpec spec = small_spec(seed, 6, 1 + static_cast<int>(seed / 8 % 2));
        if (seed % 16 == 0) spec.kernels = 8;
        if (seed % 16 == 8) spec.kernels = 7;
        const Workload w = random_workload(spec, seed);
        INFO(workload_to_toml(w, {}));
        require_search_is_enumeration(w);
        multi_stream += spec.streams < spec.kernels;
        staggered += spec.staggered_issue;
        eight += spec.kernels == 8;
    }
    if (test::sanitized) return;
    CHECK(multi_stream > 50);
    CHECK(staggered > 50);
    CHECK(eight == 20);
}

TEST_CASE("on one SM of few slots, up to 8 kernels, the search gives the enumerated max", "[rta][orders]") {
    // One SM (2 or 4 slots), at most 5 kernels, 7 in five workloads and 8 in five: few slots
    // make many orders end in one state, where a pruning that loses orders would show.
    int workloads = 0, largest = 0;
    for (std::uint64_t seed = 1; workloads < 300; ++seed, ++workloads) {
        RandomWorkloadSpec spec = small_spec(seed, 5, 1, true);
        if (seed % 60 == 0) spec.kernels = 7;
        if (seed % 60 == 30) spec.kernels = 8;
        const Workload w = random_workload(spec, seed);
        INFO(workload_to_toml(w, {}));
        require_search_is_enumeration(w);
        largest = std::max(largest, rta_orders::workload_orders(w).problem.kernels());
    }
    CHECK(largest == 8);
}

TEST_CASE("the search's Algorithm 2 state agrees with the reference on random orders", "[rta][orders]") {
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        RandomWorkloadSpec spec;
        spec.kernels = 1 + static_cast<int>(seed % 12);
        spec.streams = spec.kernels;
        spec.staggered_issue = seed % 2 == 0;
        spec.max_blocks = 40;
        const Workload w = random_workload(spec, seed);
        const rta_orders::WorkloadOrders wo = rta_orders::workload_orders(w);
        const std::vector<int> order = rta_orders::complete_order(wo.problem, {});
        rta_orders::State st = rta_orders::State::empty(wo.problem.g_max);
        const std::vector<std::int64_t> ref = reference_finish(wo.problem, order);
        for (int j : order)
            REQUIRE(st.add_kernel(wo.problem.release[j], wo.problem.c[j], wo.problem.slots[j]) == ref[j]);
    }
}

TEST_CASE("on the benchmark family (8 kernels, 32 slots) the search gives the enumerated max", "[rta][orders][slow]") {
    // 8 kernels of up to 48 slots on 32 (bench/README.md), where the search's "last blocks"
    // bound prunes; enumerating their 8! orders takes seconds per workload.
    for (std::uint64_t run = 0; run < 8; ++run) {
        RandomWorkloadSpec spec;
        spec.kernels = 8;
        spec.streams = 8;
        const Workload w = random_workload(spec, 8000 + run);
        INFO(workload_to_toml(w, {}));
        const RtaMaxOverOrders s = rta_max_over_orders(w, Budget{});
        REQUIRE(s.complete);
        CHECK(text(s) == text(max_by_enumeration(w)));
    }
}

TEST_CASE("with many kernels of equal C the search and its branch and bound alone give the enumerated max",
          "[rta][orders]") {
    // C in {1, 2}: many orders give one state, so the memo of explored (set, state) keys
    // (docs/theory/rta/rta-soundness.md, "Same state, same set") decides most nodes, including keys
    // without t_a; streams of several kernels and staggered issues add the constraints.
    int multi_stream = 0, staggered = 0;
    for (std::uint64_t seed = 1; seed <= 80; ++seed) {
        RandomWorkloadSpec spec = small_spec(seed, 7, 1 + static_cast<int>(seed % 2));
        spec.max_block_time = 2;
        spec.block_time_denominator = 1;
        spec.max_blocks = 6;
        if (seed % 8 == 0) spec.kernels = 8;
        const Workload w = random_workload(spec, 90000 + seed);
        INFO(workload_to_toml(w, {}));
        require_search_is_enumeration(w);
        multi_stream += spec.streams < spec.kernels;
        staggered += spec.staggered_issue;
    }
    CHECK(multi_stream > 15);
    CHECK(staggered > 15);
}

TEST_CASE("the local search's cached order evaluates and checks moves like a from-scratch analysis", "[rta][orders]") {
    std::mt19937_64 rng(14);
    int allowed = 0, refused = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        RandomWorkloadSpec spec = small_spec(seed, 12, 2);
        spec.kernels = 4 + static_cast<int>(seed % 9);
        const Workload w = random_workload(spec, 70000 + seed);
        const rta_orders::WorkloadOrders wo = rta_orders::workload_orders(w);
        const RtaOrderProblem& p = wo.problem;
        const auto consistent = [&](const std::vector<int>& o) {
            for (std::size_t i = 0; i < o.size(); ++i)
                for (std::size_t j = i + 1; j < o.size(); ++j)
                    if (p.release[o[i]] > p.release[o[j]] || p.stream_before(o[j], o[i])) return false;
            return true;
        };
        const auto final_state = [&](const std::vector<int>& o) {
            rta_orders::State s = rta_orders::State::empty(p.g_max);
            for (int j : o) s.add_kernel(p.release[j], p.c[j], p.slots[j]);
            return s;
        };
        rta_orders::CachedOrder cur(p, rta_orders::complete_order(p, {}));
        const int n = cur.size();
        rta_orders::State scratch;
        for (int step = 0; step < 200; ++step) {
            const rta_orders::Move m{rng() % 2 ? rta_orders::Move::swap : rta_orders::Move::insertion,
                                     static_cast<int>(rng() % n), static_cast<int>(rng() % n)};
            std::vector<int> next = cur.order();
            if (m.kind == rta_orders::Move::swap) {
                std::swap(next[m.from], next[m.to]);
            } else {
                const int j = next[m.from];
                next.erase(next.begin() + m.from);
                next.insert(next.begin() + m.to, j);
            }
            REQUIRE(cur.allowed(m) == (m.from != m.to && consistent(next)));
            if (!cur.allowed(m)) {
                ++refused;
                continue;
            }
            ++allowed;
            cur.evaluate(m, scratch);
            REQUIRE(scratch == final_state(next));
            cur.apply(m);
            REQUIRE(cur.order() == next);
            REQUIRE(cur.final_state() == final_state(next));
        }
        // The local search's answer is a consistent order whose f is the reference analysis'.
        for (int k = 0; k < p.kernels(); ++k) {
            std::vector<int> members;
            for (int j : rta_orders::complete_order(p, {}))
                if (j != k && p.may_precede(j, k)) members.push_back(j);
            const rta_orders::LocalResult l =
                rta_orders::local_search(p, k, members, Budget::for_timeout(std::chrono::seconds(5)), 4,
                                         std::numeric_limits<std::int64_t>::max());
            std::vector<int> order = l.prefix;
            REQUIRE(std::is_permutation(order.begin(), order.end(), members.begin(), members.end()));
            order.push_back(k);
            REQUIRE(consistent(order));
            REQUIRE(reference_finish(p, rta_orders::complete_order(p, order))[k] == l.finish);
        }
    }
    CHECK(allowed > 2000);
    CHECK(refused > 500);
}

TEST_CASE("with no slot free at t_a, t_a plays no part in any continuation (why memo keys leave it out)",
          "[rta][orders]") {
    std::mt19937_64 rng(1414);
    int checked = 0;
    for (int trial = 0; trial < 4000; ++trial) {
        const std::int64_t g_max = 1 + static_cast<std::int64_t>(rng() % 8);
        auto kernel = [&] {
            return std::array<std::int64_t, 3>{static_cast<std::int64_t>(rng() % 12),
                                               1 + static_cast<std::int64_t>(rng() % 5),
                                               1 + static_cast<std::int64_t>(rng() % 10)};
        };
        rta_orders::State a = rta_orders::State::empty(g_max);
        for (int i = 0, n = static_cast<int>(rng() % 6); i < n; ++i) {
            const auto [r, c, g] = kernel();
            a.add_kernel(r, c, g);
        }
        if (a.g_f != 0 || a.t_a == 0) continue;
        rta_orders::State b = a;
        b.t_a = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(a.t_a));  // any earlier t_a
        ++checked;
        for (int i = 0; i < 5; ++i) {
            const auto [r, c, g] = kernel();
            REQUIRE(a.add_kernel(r, c, g) == b.add_kernel(r, c, g));
            REQUIRE(a == b);
        }
    }
    CHECK(checked > 300);
}

TEST_CASE("constructed orders (level, then raise) keep releases and streams and are never above the maximum",
          "[rta][orders]") {
    int built = 0, at_max = 0;
    for (std::uint64_t seed = 1; seed <= 120; ++seed) {
        RandomWorkloadSpec spec = small_spec(seed, 7, 1 + static_cast<int>(seed % 2));
        const Workload w = random_workload(spec, 95000 + seed);
        INFO(workload_to_toml(w, {}));
        const rta_orders::WorkloadOrders wo = rta_orders::workload_orders(w);
        const RtaOrderProblem& p = wo.problem;
        const rta_orders::SearchResult exact =
            rta_orders::search_max_finish(p, Budget{}, std::nullopt, {.local_search = false});
        REQUIRE(exact.complete);
        for (int k = 0; k < p.kernels(); ++k) {
            std::vector<int> members;
            for (int j : rta_orders::complete_order(p, {}))
                if (j != k && p.may_precede(j, k)) members.push_back(j);
            const std::optional<rta_orders::LocalResult> l = rta_orders::leveled_order(p, k, members);
            REQUIRE(l);  // the members' own order (longest C first within each release) is consistent
            ++built;
            std::vector<int> order = l->prefix;
            REQUIRE(std::is_permutation(order.begin(), order.end(), members.begin(), members.end()));
            order.push_back(k);
            for (std::size_t i = 0; i < order.size(); ++i)
                for (std::size_t j = i + 1; j < order.size(); ++j) {
                    REQUIRE(p.release[order[i]] <= p.release[order[j]]);
                    REQUIRE_FALSE(p.stream_before(order[j], order[i]));
                }
            REQUIRE(reference_finish(p, rta_orders::complete_order(p, order))[k] == l->finish);
            REQUIRE(l->finish <= *exact.finish[k]);
            at_max += l->finish == *exact.finish[k];
        }
    }
    CHECK(built > 400);
    CHECK(at_max > built / 2);  // a useful incumbent, not only a valid one
}
