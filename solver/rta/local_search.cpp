#include "solver/rta/local_search.hpp"

#include <algorithm>
#include <limits>
#include <random>
#include <tuple>
#include <utility>

#include "solver/rta/cached_order.hpp"
#include "solver/rta/state.hpp"

namespace gpuwcrt::rta_orders {
namespace {

// f_k, then (on a plateau of f_k) minus the deficit of the profile to the next improvement,
// then the sum of the g_k earliest free instants (docs/theory/rta/rta-soundness.md, "Incumbents").
using Score = std::tuple<std::int64_t, __int128, __int128>;

class Scorer {
public:
    Scorer(const RtaOrderProblem& p, int k) : p_(p), k_(k) {}

    // `want`: the f_k to reach next. When g_k <= G, f_k >= want exactly when the g_k-th
    // earliest free instant (raised to k's release) is >= want − C_k, i.e. when the G − g_k + 1
    // latest instants all are: their shortfall to that level is 0. The shortfall falls as the
    // profile nears the target, which guides the search across f_k's plateaus.
    Score operator()(const State& s, std::int64_t want) {
        end_ = s;
        const std::int64_t f = end_.add_kernel(p_.release[k_], p_.c[k_], p_.slots[k_]);
        const std::int64_t floor = std::max(s.t_a, p_.release[k_]);
        __int128 shortfall = 0;
        if (p_.slots[k_] <= p_.g_max) {
            const std::int64_t level = want - p_.c[k_];
            std::int64_t left = p_.g_max - p_.slots[k_] + 1;
            for (auto it = s.h.begin(); it != s.h.end() && left > 0; ++it) {  // latest first
                const std::int64_t n = std::min(left, it->second);
                shortfall += static_cast<__int128>(n) * std::max<std::int64_t>(0, level - std::max(it->first, floor));
                left -= n;
            }
            shortfall += static_cast<__int128>(left) * std::max<std::int64_t>(0, level - floor);
        }
        // The g_k earliest free instants, each at least t_a (and k's release).
        __int128 earliest = 0;
        std::int64_t left = std::min(p_.slots[k_], p_.g_max);
        const std::int64_t at_t_a = std::min(left, s.g_f);
        earliest += static_cast<__int128>(at_t_a) * floor;
        left -= at_t_a;
        for (auto it = s.h.rbegin(); it != s.h.rend() && left > 0; ++it) {
            const std::int64_t n = std::min(left, it->second);
            earliest += static_cast<__int128>(n) * std::max(it->first, floor);
            left -= n;
        }
        return {f, -shortfall, earliest};
    }

private:
    const RtaOrderProblem& p_;
    int k_;
    State end_;
};

}  // namespace

LocalResult local_search(const RtaOrderProblem& p, int k, std::vector<int> members, const Budget& budget, int restarts,
                         std::int64_t target, std::uint64_t seed) {
    std::mt19937_64 rng(0x5eed + static_cast<std::uint64_t>(k) + (seed << 32));
    Scorer score(p, k);
    CachedOrder cur(p, std::move(members));
    const int n = cur.size();
    Score cur_score = score(cur.final_state(), std::numeric_limits<std::int64_t>::max() / 4);
    LocalResult best{std::get<0>(cur_score), cur.order()};
    if (n < 2) return best;  // one order only
    cur_score = score(cur.final_state(), best.finish + 1);
    State scratch;
    auto out_of_time = [&] { return budget.expired(); };
    // `restarts` perturbations in a row that do not improve the best order end the search.
    for (long long idle = 0; idle <= restarts && best.finish < target; ++idle) {
        if (out_of_time()) return best;
        // First improvement, moves that change only the tail first (they are the cheapest to
        // evaluate, and the tail decides the profile k meets); after an improvement the scan
        // starts again from the tail.
        for (bool improved = true; improved;) {
            improved = false;
            for (int lo = n - 2; lo >= 0 && !improved; --lo)
                for (int hi = n - 1; hi > lo && !improved; --hi)
                    for (const Move m :
                         {Move{Move::insertion, lo, hi}, Move{Move::insertion, hi, lo}, Move{Move::swap, lo, hi}}) {
                        if (m.kind == Move::swap && hi == lo + 1) continue;  // = an insertion
                        if (!cur.allowed(m)) continue;
                        if (out_of_time()) return best;
                        cur.evaluate(m, scratch);
                        const Score sc = score(scratch, best.finish + 1);
                        if (sc <= cur_score) continue;
                        cur.apply(m);
                        cur_score = sc;
                        improved = true;
                        if (std::get<0>(sc) > best.finish) {
                            best = {std::get<0>(sc), cur.order()};
                            idle = 0;
                            if (best.finish >= target) return best;
                            cur_score = score(cur.final_state(), best.finish + 1);
                        }
                        break;
                    }
        }
        // Perturb the best order: a few random allowed moves, more as the search stalls.
        cur.reset(best.prefix);
        const int kicks = 2 + static_cast<int>(rng() % (2 + std::min<long long>(idle, 6)));
        for (int s = 0, tries = 0; s < kicks && tries < 8 * kicks; ++tries) {
            const int a = static_cast<int>(rng() % n), b = static_cast<int>(rng() % n);
            const Move m{rng() % 2 ? Move::swap : Move::insertion, a, b};
            if (!cur.allowed(m)) continue;
            cur.apply(m);
            ++s;
        }
        cur_score = score(cur.final_state(), best.finish + 1);
    }
    return best;
}

}  // namespace gpuwcrt::rta_orders
