// The search's tail check (solver/rta/tail_bound.hpp) against enumeration of every
// continuation, at the root and at random prefixes of seeded random order problems (releases,
// streams, kernels wider than the one big SM, equal C), and the search that uses it against
// enumeration of every order.
#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <random>

#include "solver/rta/search.hpp"
#include "solver/rta/state.hpp"
#include "solver/rta/tail_bound.hpp"

using namespace gpuwcrt;
using namespace gpuwcrt::rta_orders;

namespace {

constexpr std::int64_t none = std::numeric_limits<std::int64_t>::min();

// Small problems: up to 8 kernels, 1-6 slots, C in 1..4 (often equal), slots up to G + 3,
// releases 0 or staggered, up to three streams.
RtaOrderProblem random_problem(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto pick = [&](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    RtaOrderProblem p;
    const int n = seed % 25 == 0 ? 8 : static_cast<int>(pick(1, 7));
    p.g_max = pick(1, 6);
    const bool staggered = seed % 3 == 0, streams = seed % 2 == 0;
    std::vector<int> next_position(3, 0);
    for (int j = 0; j < n; ++j) {
        p.release.push_back(staggered ? pick(0, 3) : 0);
        p.c.push_back(pick(1, seed % 4 == 1 ? 2 : 4));
        p.slots.push_back(pick(1, p.g_max + 3));
        const int s = streams ? static_cast<int>(pick(0, 2)) : j + 3;
        p.stream.push_back(s);
        p.position.push_back(s < 3 ? next_position[s]++ : 0);
    }
    std::int64_t horizon = 0;
    for (int j = 0; j < n; ++j) horizon = std::max(horizon, p.release[j]);
    for (int j = 0; j < n; ++j) horizon += p.slots[j] * p.c[j];
    p.horizon = horizon;
    return p;
}

// An order of `kernels` is one the search ranges over: releases non-decreasing, and of two
// kernels of equal release in one stream the earlier first.
bool consistent(const RtaOrderProblem& p, const std::vector<int>& order) {
    for (std::size_t x = 0; x < order.size(); ++x)
        for (std::size_t y = x + 1; y < order.size(); ++y)
            if (p.release[order[y]] < p.release[order[x]] || p.stream_before(order[y], order[x])) return false;
    return true;
}

// The largest f_k over every permutation of `rest` after `from` (all of them, or only the
// consistent ones).
std::int64_t max_finish(const RtaOrderProblem& p, const State& from, std::vector<int> rest, int k,
                        bool only_consistent) {
    std::sort(rest.begin(), rest.end());
    std::int64_t best = none;
    do {
        if (only_consistent && !consistent(p, rest)) continue;
        State s = from;
        for (int j : rest) s.add_kernel(p.release[j], p.c[j], p.slots[j]);
        best = std::max(best, s.add_kernel(p.release[k], p.c[k], p.slots[k]));
    } while (std::next_permutation(rest.begin(), rest.end()));
    return best;
}

}  // namespace

TEST_CASE("the tail check never calls a reachable finish impossible, and is exact without a step limit",
          "[rta][orders][tail]") {
    int checked = 0, impossible = 0, possible = 0, wide = 0, equal_c = 0, prefixes = 0;
    for (std::uint64_t seed = 1; seed <= 320; ++seed) {
        const RtaOrderProblem p = random_problem(seed);
        std::mt19937_64 rng(seed * 7919);
        for (int k = 0; k < p.kernels(); ++k) {
            std::vector<int> members;
            for (int j = 0; j < p.kernels(); ++j)
                if (j != k && p.may_precede(j, k)) members.push_back(j);
            // A random consistent order of the members: each time a random one of those with
            // the earliest release and no stream predecessor left.
            std::vector<int> left = members;
            members.clear();
            while (!left.empty()) {
                std::int64_t earliest = std::numeric_limits<std::int64_t>::max();
                for (int j : left) earliest = std::min(earliest, p.release[j]);
                std::vector<std::size_t> ready;
                for (std::size_t i = 0; i < left.size(); ++i)
                    if (p.release[left[i]] == earliest &&
                        std::none_of(left.begin(), left.end(), [&](int o) { return p.stream_before(o, left[i]); }))
                        ready.push_back(i);
                const std::size_t i = ready[std::uniform_int_distribution<std::size_t>(0, ready.size() - 1)(rng)];
                members.push_back(left[i]);
                left.erase(left.begin() + static_cast<long>(i));
            }
            REQUIRE(consistent(p, members));
            // The root and two random prefixes.
            for (int trial = 0; trial < 3; ++trial) {
                const std::size_t cut =
                    trial == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, members.size())(rng);
                State s = State::empty(p.g_max);
                for (std::size_t i = 0; i < cut; ++i)
                    s.add_kernel(p.release[members[i]], p.c[members[i]], p.slots[members[i]]);
                const std::vector<int> rest(members.begin() + static_cast<long>(cut), members.end());
                // The check's premise: no release still pending.
                std::int64_t latest = p.release[k];
                for (int j : rest) latest = std::max(latest, p.release[j]);
                if (latest > s.t_a) continue;
                std::vector<std::pair<std::int64_t, std::int64_t>> kernels;
                for (int j : rest) kernels.push_back({p.c[j], p.slots[j]});
                const std::int64_t truth = max_finish(p, s, rest, k, true);
                const std::int64_t relaxed = max_finish(p, s, rest, k, false);  // streams ignored
                INFO("seed " << seed << " k " << k << " prefix " << cut << " truth " << truth << " relaxed "
                             << relaxed);
                for (std::int64_t target = relaxed - 1; target <= relaxed + 2; ++target) {
                    const TailResult t = tail_reaches(s, p.g_max, kernels, p.c[k], p.slots[k], target, 10'000'000);
                    const TailAnswer a = t.answer;
                    INFO("target " << target);
                    if (a == TailAnswer::possible) {
                        // The order it found is a permutation of the rest that reaches the target.
                        std::vector<int> sorted = t.order;
                        std::sort(sorted.begin(), sorted.end());
                        for (std::size_t i = 0; i < sorted.size(); ++i) REQUIRE(sorted[i] == static_cast<int>(i));
                        State e = s;
                        for (int i : t.order) e.add_kernel(p.release[rest[i]], p.c[rest[i]], p.slots[rest[i]]);
                        REQUIRE(e.add_kernel(p.release[k], p.c[k], p.slots[k]) >= target);
                    }
                    if (target <= truth) REQUIRE(a != TailAnswer::impossible);  // the bound stays >= the true max
                    REQUIRE(a == (target <= relaxed ? TailAnswer::possible : TailAnswer::impossible));
                    impossible += a == TailAnswer::impossible;
                    possible += a == TailAnswer::possible;
                }
                ++checked;
                prefixes += cut > 0;
                wide += p.slots[k] > p.g_max;
                equal_c += std::any_of(rest.begin(), rest.end(), [&](int j) { return p.c[j] == p.c[k]; });
            }
        }
    }
    CHECK(checked > 1000);
    CHECK(prefixes > 300);
    CHECK(wide > 100);
    CHECK(equal_c > 300);
    CHECK(impossible > 1000);
    CHECK(possible > 1000);
}

TEST_CASE("the search with the tail check gives the enumerated max over orders", "[rta][orders][tail]") {
    for (std::uint64_t seed = 1; seed <= 320; ++seed) {
        const RtaOrderProblem p = random_problem(seed);
        const SearchResult r = search_max_finish(p, Budget{});
        REQUIRE(r.complete);
        for (int k = 0; k < p.kernels(); ++k) {
            std::vector<int> members;
            for (int j = 0; j < p.kernels(); ++j)
                if (j != k && p.may_precede(j, k)) members.push_back(j);
            INFO("seed " << seed << " k " << k);
            REQUIRE(*r.finish[k] == max_finish(p, State::empty(p.g_max), members, k, true));
        }
    }
}
