#include "solver/rta_orders/local_search.hpp"

#include <algorithm>
#include <random>
#include <utility>

#include "solver/rta_orders/state.hpp"

namespace gpuwcrt::rta_orders {
namespace {

using Score = std::pair<std::int64_t, __int128>;  // f_k, then Σ of the g_k earliest free instants

Score score(const RtaOrderProblem& p, int k, const std::vector<int>& prefix) {
    State s = State::empty(p.g_max);
    for (int j : prefix) s.add_kernel(p.release[j], p.c[j], p.slots[j]);
    // The g_k earliest free instants (each at least t_a) before k.
    __int128 sum = 0;
    std::int64_t left = std::min(p.slots[k], p.g_max);
    const std::int64_t at_t_a = std::min(left, s.g_f);
    sum += static_cast<__int128>(at_t_a) * s.t_a;
    left -= at_t_a;
    for (auto it = s.h.rbegin(); it != s.h.rend() && left > 0; ++it) {
        const std::int64_t n = std::min(left, it->second);
        sum += static_cast<__int128>(n) * it->first;
        left -= n;
    }
    const std::int64_t f = s.add_kernel(p.release[k], p.c[k], p.slots[k]);
    return {f, sum};
}

bool consistent(const RtaOrderProblem& p, const std::vector<int>& order) {
    for (std::size_t i = 1; i < order.size(); ++i)
        if (p.release[order[i - 1]] > p.release[order[i]]) return false;
    for (std::size_t i = 0; i < order.size(); ++i)
        for (std::size_t j = i + 1; j < order.size(); ++j)
            if (p.stream_before(order[j], order[i])) return false;
    return true;
}

}  // namespace

LocalResult local_search(const RtaOrderProblem& p, int k, std::vector<int> members,
                         std::chrono::steady_clock::time_point until, int restarts, std::int64_t target,
                         std::uint64_t seed) {
    std::mt19937_64 rng(0x5eed + static_cast<std::uint64_t>(k) + (seed << 32));
    std::vector<int> current = members;
    Score cur = score(p, k, current);
    LocalResult best{cur.first, current};
    const std::size_t n = current.size();
    if (n < 2) return best;  // one order only
    // `restarts` perturbations in a row that do not improve the best order end the search.
    for (long long idle = 0; idle <= restarts && best.finish < target; ++idle) {
        if (std::chrono::steady_clock::now() >= until) return best;
        // First improvement over every insertion move (take one kernel out, put it elsewhere).
        for (bool improved = true; improved;) {
            improved = false;
            for (std::size_t from = 0; from < n && !improved; ++from)
                for (std::size_t to = 0; to < n && !improved; ++to) {
                    if (to == from) continue;
                    if (std::chrono::steady_clock::now() >= until) return best;
                    std::vector<int> next = current;
                    const int j = next[from];
                    next.erase(next.begin() + static_cast<long>(from));
                    next.insert(next.begin() + static_cast<long>(to), j);
                    if (!consistent(p, next)) continue;
                    const Score sc = score(p, k, next);
                    if (sc > cur) {
                        cur = sc;
                        current = std::move(next);
                        improved = true;
                        if (cur.first >= target) return {cur.first, current};
                    }
                }
        }
        if (cur.first > best.finish) {
            best = {cur.first, current};
            idle = 0;
        }
        // Perturb the best order: a few random swaps that keep it consistent.
        current = best.prefix;
        for (int s = 0; s < 3; ++s) {
            const std::size_t a = rng() % n, b = rng() % n;
            std::swap(current[a], current[b]);
            if (!consistent(p, current)) std::swap(current[a], current[b]);
        }
        cur = score(p, k, current);
    }
    return best;
}

}  // namespace gpuwcrt::rta_orders
