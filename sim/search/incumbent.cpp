#include "sim/search/incumbent.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <random>

#include "sim/simulate.hpp"

namespace gpuwcrt::search {
namespace {

// A launch permutation as simulator ranks. Within a stream the list order is kept by giving
// the stream's operations its positions' ranks in ascending order, so every candidate is a
// legal launch order (issue times are ordered by the simulator itself).
std::vector<long> legal_ranks(const Workload& w, const std::vector<int>& perm) {
    std::vector<long> rank(w.ops.size());
    for (std::size_t i = 0; i < perm.size(); ++i) rank[static_cast<std::size_t>(perm[i])] = static_cast<long>(i);
    std::vector<std::vector<int>> by_stream(w.streams.size());
    for (std::size_t i = 0; i < w.ops.size(); ++i)
        by_stream[static_cast<std::size_t>(w.ops[i].stream)].push_back(static_cast<int>(i));
    for (const auto& ops : by_stream) {
        std::vector<long> r;
        for (int i : ops) r.push_back(rank[static_cast<std::size_t>(i)]);
        std::sort(r.begin(), r.end());
        for (std::size_t j = 0; j < ops.size(); ++j) rank[static_cast<std::size_t>(ops[j])] = r[j];
    }
    return rank;
}

enum class Placement { most_room, first_fit, round_robin, last_fit, random };

struct Evaluator {
    const Workload& w;
    int op;
    Policy policy;
    std::mt19937_64 rng;
    long simulations = 0;

    std::pair<Time, Schedule> run(const std::vector<int>& perm, Placement how) {
        Scenario sc;
        sc.rank = legal_ranks(w, perm);
        sc.policy = policy;
        if (policy == Policy::chooser) {
            switch (how) {
                case Placement::most_room:
                    sc.policy = Policy::most_room;
                    break;
                case Placement::first_fit:
                    sc.policy = Policy::first_fit;
                    break;
                case Placement::round_robin:
                    sc.policy = Policy::round_robin;
                    break;
                case Placement::last_fit:
                    sc.choose = [](const PlacementRequest& r) { return r.fitting.back(); };
                    break;
                case Placement::random:
                    sc.choose = [this](const PlacementRequest& r) {
                        return r.distinct[static_cast<std::size_t>(rng() % r.distinct.size())];
                    };
                    break;
            }
        }
        ++simulations;
        Schedule s = simulate(w, sc);
        const Time resp = s.response(op);
        return {resp, std::move(s)};
    }
};

}  // namespace

Incumbent search_incumbent(const Workload& w, int op, Policy policy, long simulations, std::uint64_t seed,
                           const Budget& budget) {
    Evaluator ev{w, op, policy, std::mt19937_64(seed)};
    const std::size_t n = w.ops.size();
    const std::vector<Placement> placements =
        policy == Policy::chooser
            ? std::vector<Placement>{Placement::most_room, Placement::first_fit, Placement::round_robin,
                                     Placement::last_fit, Placement::random}
            : std::vector<Placement>{Placement::most_room};
    Incumbent best;
    std::optional<Schedule> best_schedule;  // its witness is built once, at the end
    std::vector<int> best_perm;
    Placement best_how = placements.front();
    auto consider = [&](const std::vector<int>& perm, Placement how) {
        auto [resp, s] = ev.run(perm, how);
        if (best_schedule && resp < best.response) return;
        best.response = resp;
        best_schedule = std::move(s);
        best_perm = perm;
        best_how = how;
    };

    // Structured starts: the operation last, the others in file order, reversed, and by
    // decreasing block time and grid (long blocks before it hold resources longest).
    std::vector<int> others;
    for (std::size_t i = 0; i < n; ++i)
        if (static_cast<int>(i) != op) others.push_back(static_cast<int>(i));
    std::vector<std::vector<int>> starts;
    starts.push_back(others);
    starts.emplace_back(others.rbegin(), others.rend());
    auto by = [&](auto key) {
        std::vector<int> v = others;
        std::stable_sort(v.begin(), v.end(), [&](int a, int b) { return key(a) > key(b); });
        starts.push_back(v);
    };
    by([&](int a) { return w.ops[static_cast<std::size_t>(a)].time.hi; });
    by([&](int a) {
        return Time(w.ops[static_cast<std::size_t>(a)].blocks) * w.ops[static_cast<std::size_t>(a)].time.hi;
    });
    for (auto& s : starts) s.push_back(op);
    std::vector<int> file_order(n);  // what a plain simulation runs, so never worse than that
    std::iota(file_order.begin(), file_order.end(), 0);
    starts.push_back(file_order);
    const auto out_of_time = [&] { return budget.expired(); };
    for (const auto& s : starts)
        for (Placement how : placements)
            if (!best_schedule || !out_of_time()) consider(s, how);  // at least one scenario
    // Moves: take one operation out and put it elsewhere; sideways moves are kept too, so the
    // search drifts across plateaus instead of stopping on the first one.
    while (ev.simulations < simulations && n > 1) {
        if (out_of_time()) break;  // a clock read costs nothing next to a simulation
        std::vector<int> perm = best_perm;
        const std::size_t from = ev.rng() % n, to = ev.rng() % n;
        if (from == to) continue;
        const int moved = perm[from];
        perm.erase(perm.begin() + static_cast<long>(from));
        perm.insert(perm.begin() + static_cast<long>(to), moved);
        const Placement how =
            ev.rng() % 4 == 0 ? placements[static_cast<std::size_t>(ev.rng() % placements.size())] : best_how;
        consider(perm, how);
    }
    best.simulations = ev.simulations;
    best.witness = witness_of(w, *best_schedule);
    return best;
}

}  // namespace gpuwcrt::search
